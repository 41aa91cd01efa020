import { IsOptional, IsString, MaxLength } from 'class-validator';
import { IsStringMap } from '#hawser/api-contracts';
import { actionOf, statusArgument } from './action-body.js';
import { ManilaHttpError } from './manila-error.js';
import { metadataFromBody } from './metadata-body.js';
import { requireBodyKey, validateBody } from './validate-body.js';

class ThingDto {
  @IsString()
  name!: string;

  @IsOptional()
  @IsStringMap()
  metadata?: Record<string, string>;

  @IsOptional()
  @IsString()
  @MaxLength(5)
  kind?: string;
}

const NOT_OBJECTS: unknown[] = [null, [], [{}], 5, 'text', true];

/** What a helper throws: its status and message, or 'no error'. */
const refusal = async (run: () => unknown): Promise<[number, string] | 'no error'> => {
  try {
    await run();
    return 'no error';
  } catch (error) {
    if (!(error instanceof ManilaHttpError)) throw error;
    return [error.status, error.message];
  }
};

describe('body helpers', () => {
  describe('requireBodyKey', () => {
    it.each(NOT_OBJECTS)(
      'refuses a body %j as having no wrapper object (422 by default)',
      async (body) => {
        expect(await refusal(() => requireBodyKey(body, 'share'))).toEqual([
          422,
          'Unable to process the contained instructions: missing share.',
        ]);
      },
    );

    it.each(NOT_OBJECTS)(
      'refuses a wrapper holding %j with the status the route gives',
      async (part) => {
        expect(
          await refusal(() => requireBodyKey({ share_type: part }, 'share_type', 400)),
        ).toEqual([400, 'Malformed request body: share_type must be an object.']);
        expect(await refusal(() => requireBodyKey({ share: part }, 'share'))).toEqual([
          422,
          'Unable to process the contained instructions: share must be an object.',
        ]);
      },
    );

    it('does not take an inherited member for the wrapper', async () => {
      expect(await refusal(() => requireBodyKey({}, 'constructor', 400))).toEqual([
        400,
        'Malformed request body: missing constructor.',
      ]);
    });

    it('returns the wrapped object', () => {
      expect(requireBodyKey({ share: { size: 1 } }, 'share')).toEqual({ size: 1 });
    });
  });

  describe('validateBody', () => {
    it.each(NOT_OBJECTS)('refuses %j with a 400 naming the part', async (plain) => {
      expect(await refusal(() => validateBody(ThingDto, plain, 'thing'))).toEqual([
        400,
        'Invalid request body: thing must be an object.',
      ]);
    });

    it('names the first problem of a nested value of the wrong type', async () => {
      expect(
        await refusal(() => validateBody(ThingDto, { name: 'n', metadata: { k: 5 } }, 'thing')),
      ).toEqual([400, 'Invalid thing: metadata must be an object of string values.']);
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['missing', {}, 'name must be a string'],
      ['of the wrong type under a length check', { name: 'n', kind: 7 }, 'kind must be a string'],
      ['an object under a length check', { name: 'n', kind: {} }, 'kind must be a string'],
      [
        'too long',
        { name: 'n', kind: 'longer' },
        'kind must be shorter than or equal to 5 characters',
      ],
    ])(
      'when a property is %s, then the 400 names the check written first',
      async (_case, plain, message) => {
        expect(await refusal(() => validateBody(ThingDto, plain, 'thing'))).toEqual([
          400,
          `Invalid thing: ${message}.`,
        ]);
      },
    );

    it('keeps keys named like object members, in maps and at the top, as the keys they are', async () => {
      const plain = JSON.parse(
        '{"name":"n","__proto__":{"polluted":true},"metadata":{"__proto__":"a","constructor":"b","toString":"c"}}',
      );
      const dto = await validateBody(ThingDto, plain, 'thing');
      expect(dto).toBeInstanceOf(ThingDto);
      expect(Object.entries(dto.metadata ?? {})).toEqual([
        ['__proto__', 'a'],
        ['constructor', 'b'],
        ['toString', 'c'],
      ]);
      expect(Object.hasOwn(dto, '__proto__')).toBe(true);
      expect((dto as unknown as { polluted?: unknown }).polluted).toBeUndefined();
    });
  });

  describe('metadataFromBody', () => {
    it.each([...NOT_OBJECTS, { k: 5 }, { k: null }])(
      'refuses metadata %j with 400',
      async (metadata) => {
        const answer = await refusal(() => metadataFromBody({ metadata }));
        expect(answer).toEqual([
          400,
          expect.stringMatching(/^Malformed request body: metadata must be an object/),
        ]);
      },
    );

    it('refuses a body without metadata with 400, as Manila does', async () => {
      expect(await refusal(() => metadataFromBody({ meta: {} }))).toEqual([
        400,
        'Malformed request body: missing metadata.',
      ]);
    });

    it('returns keys named like object members as own keys', () => {
      const metadata = metadataFromBody(JSON.parse('{"metadata":{"__proto__":"a","valueOf":"b"}}'));
      expect(Object.entries(metadata)).toEqual([
        ['__proto__', 'a'],
        ['valueOf', 'b'],
      ]);
    });
  });

  describe('actions', () => {
    it.each([...NOT_OBJECTS, {}, { a: {}, b: {} }])(
      'refuses %j as not one action',
      async (body) => {
        expect(await refusal(() => actionOf(body))).toEqual([
          400,
          'Malformed request body: exactly one action is expected.',
        ]);
      },
    );

    it.each([...NOT_OBJECTS, {}])(
      "refuses a reset_status argument %j without a status, in Manila's words",
      async (argument) => {
        expect(await refusal(() => statusArgument(argument))).toEqual([
          400,
          "Must specify 'status'",
        ]);
      },
    );

    it.each([
      [{ status: 'error' }, 'error'],
      [{ status: null }, 'None'],
      [{ status: 5 }, '5'],
    ])('reads the status of %j as %j, for the decision to judge', (argument, status) => {
      expect(statusArgument(argument)).toBe(status);
    });

    it('reads the one action and its argument', () => {
      expect(actionOf({ extend: { new_size: 2 } })).toEqual({
        name: 'extend',
        argument: { new_size: 2 },
      });
    });
  });
});
