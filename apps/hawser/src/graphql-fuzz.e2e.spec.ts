import {
  ADMIN_TOKEN,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';
import { fuzzSettings, randomFrom, type Random } from './test-support/seeded-random.js';
import { availableDefaultShare, createDefaultType } from './test-support/default-share-type.js';
import type { ManilaCall } from './test-support/replicated-share.js';

/*
 * Queries generated from a seed and from the schema itself (read by introspection), against a
 * real Hawser holding a share: every field of Query with arguments of every kind, right and
 * wrong (odd numbers and strings, nulls, lists, objects, unknown names), selections of the
 * returned types' fields a few levels deep, and the same texts cut or doubled. Whatever they
 * are, none may fail inside the server: no 5xx, no `INTERNAL_SERVER_ERROR`, and the log is the
 * same after them. HAWSER_FUZZ_SEED and HAWSER_FUZZ_COUNT vary it, as for the REST fuzz.
 */

const { seed: SEED, count: COUNT } = fuzzSettings(20_261_129, 1_500);
const PARALLEL = 8;
const MEMBER_TOKEN = 'alice:22222222222222222222222222222222:member,reader';

interface TypeRef {
  readonly kind: string;
  readonly name: string | null;
  readonly ofType: TypeRef | null;
}
interface Field {
  readonly name: string;
  readonly args: readonly { readonly name: string; readonly type: TypeRef }[];
  readonly type: TypeRef;
}
interface SchemaType {
  readonly name: string;
  readonly kind: string;
  readonly fields: readonly Field[] | null;
  readonly inputFields: readonly { readonly name: string; readonly type: TypeRef }[] | null;
  readonly enumValues: readonly { readonly name: string }[] | null;
}

const TYPE_REF = 'kind name ofType { kind name ofType { kind name ofType { kind name } } }';
const INTROSPECTION = `{ __schema { queryType { name } types { name kind
  fields { name args { name type { ${TYPE_REF} } } type { ${TYPE_REF} } }
  inputFields { name type { ${TYPE_REF} } } enumValues { name } } } }`;

/** GraphQL literals that are wrong for most arguments, or right in odd ways. */
const ODD_LITERALS = [
  '-1',
  '0',
  '2147483647',
  '2147483648',
  '1e308',
  '-0.5',
  '""',
  '"garbage"',
  `"${'x'.repeat(2_000)}"`,
  '"%00"',
  '"eyJ4IjoxfQ=="',
  '"00000000-0000-0000-0000-000000000000"',
  'null',
  'true',
  '[]',
  '[1, "a", null]',
  '{}',
  '{ nope: 1 }',
  'NOT_A_VALUE',
];

const named = (ref: TypeRef): TypeRef => (ref.ofType ? named(ref.ofType) : ref);

const plausible = (ref: TypeRef, types: Map<string, SchemaType>, r: Random, shareId: string) => {
  const type = named(ref);
  switch (type.name) {
    case 'Int':
      return String(Math.floor(r.next() * 120) - 10);
    case 'Float':
      return String(r.next() * 10);
    case 'Boolean':
      return r.pick(['true', 'false']);
    case 'ID':
      return JSON.stringify(r.pick([shareId, 'nope']));
    case 'String':
      return JSON.stringify(r.pick(['alpha', 'available', 'NFS', '', shareId]));
    default:
      break;
  }
  const schemaType = types.get(type.name ?? '');
  if (schemaType?.enumValues) return r.pick(schemaType.enumValues).name;
  if (schemaType?.inputFields) {
    const fields = schemaType.inputFields.filter(() => r.next() < 0.5);
    return `{ ${fields.map((f) => `${f.name}: ${argument(f.type, types, r, shareId)}`).join(', ')} }`;
  }
  return r.pick(ODD_LITERALS);
};

const argument = (
  ref: TypeRef,
  types: Map<string, SchemaType>,
  r: Random,
  shareId: string,
): string => (r.next() < 0.4 ? r.pick(ODD_LITERALS) : plausible(ref, types, r, shareId));

/** A selection of the type's fields, `depth` levels at most, sometimes with one it lacks. */
const selection = (
  ref: TypeRef,
  types: Map<string, SchemaType>,
  r: Random,
  shareId: string,
  depth: number,
): string => {
  const type = types.get(named(ref).name ?? '');
  if (!type?.fields) return '';
  const picked = type.fields.filter(() => r.next() < 0.4);
  const fields = (picked.length > 0 ? picked : [type.fields[0] as Field]).map((field) => {
    const args = field.args.filter(() => r.next() < 0.5);
    const text = args.length
      ? `${field.name}(${args.map((a) => `${a.name}: ${argument(a.type, types, r, shareId)}`).join(', ')})`
      : field.name;
    const inner = depth > 0 ? selection(field.type, types, r, shareId, depth - 1) : '';
    const object = types.get(named(field.type).name ?? '')?.fields;
    // A field of an object type needs a selection; at the depth limit `__typename` is one.
    return object ? `${text} ${inner || '{ __typename }'}` : text;
  });
  if (r.next() < 0.1) fields.push(r.pick(['nope', '__typename', 'id(x: 1)']));
  return `{ ${fields.join(' ')} }`;
};

/** A query on one root field, then, sometimes, cut short, doubled or given stray characters. */
const generate = (
  root: readonly Field[],
  types: Map<string, SchemaType>,
  r: Random,
  shareId: string,
): string => {
  const field = r.pick(root);
  const args = field.args.filter(() => r.next() < 0.7);
  const call = args.length
    ? `${field.name}(${args.map((a) => `${a.name}: ${argument(a.type, types, r, shareId)}`).join(', ')})`
    : field.name;
  const body = selection(field.type, types, r, shareId, 3);
  const text = `{ ${r.next() < 0.2 ? 'a: ' : ''}${call} ${body} }`;
  const mangle = r.next();
  if (mangle < 0.08) return text.slice(0, Math.floor(r.next() * text.length));
  if (mangle < 0.12) return `${text} ${text}`;
  if (mangle < 0.16) return text.replace(/[{}()]/, r.pick(['', '((', '}}', '"']));
  return text;
};

describe('GraphQL fuzz', () => {
  let hawser: HawserTestServer;
  let shareId: string;
  const member: ManilaCall = (method, route, body) =>
    hawser.request(method, route, body, { token: MEMBER_TOKEN });

  const logLength = async () => {
    let count = 0;
    for (let after: number | null = 0; after !== null;) {
      const page = await hawser.request('GET', `/hawser/v1/events?limit=1000&after=${after}`);
      expect(page.status).toBe(200);
      count += (page.body.events as unknown[]).length;
      after = page.body.next_after as number | null;
    }
    return count;
  };

  beforeAll(async () => {
    hawser = await startHawser();
    await createDefaultType(hawser);
    shareId = await availableDefaultShare(member);
  });
  afterAll(() => hawser.close());

  it(`answers ${COUNT} generated queries (seed ${SEED}) without failing inside, and changes nothing`, async () => {
    const schema = await hawser.request('POST', '/graphql', { query: INTROSPECTION });
    expect(schema.status).toBe(200);
    const types = new Map<string, SchemaType>(
      (schema.body.data.__schema.types as SchemaType[]).map((t) => [t.name, t]),
    );
    const root = types.get(schema.body.data.__schema.queryType.name as string)?.fields ?? [];
    expect(root.length).toBeGreaterThan(0);

    const r = randomFrom(SEED);
    const queries = Array.from({ length: COUNT }, () => ({
      text: generate(root, types, r, shareId),
      token: r.pick([ADMIN_TOKEN, MEMBER_TOKEN, MEMBER_TOKEN, '']),
    }));
    const before = await logLength();
    const problems: string[] = [];
    const outcomes = new Map<string, number>();
    for (let i = 0; i < queries.length; i += PARALLEL) {
      await Promise.all(
        queries.slice(i, i + PARALLEL).map(async ({ text, token }) => {
          const response = await fetch(`${hawser.url}/graphql`, {
            method: 'POST',
            headers: {
              'Content-Type': 'application/json',
              ...(token !== '' && { 'X-Auth-Token': token }),
            },
            body: JSON.stringify({ query: text }),
          });
          const body = (await response.json().catch(() => undefined)) as
            { errors?: { extensions?: { code?: string } }[]; data?: unknown } | undefined;
          const codes = (body?.errors ?? []).map((e) => e.extensions?.code ?? 'none');
          const outcome = `${response.status} ${codes[0] ?? (body?.data ? 'data' : 'nothing')}`;
          outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
          if (
            response.status >= 500 ||
            body === undefined ||
            codes.includes('INTERNAL_SERVER_ERROR')
          )
            problems.push(`${outcome} <- ${token || 'no token'}: ${text.slice(0, 300)}`);
        }),
      );
    }

    expect({ problems, appended: (await logLength()) - before }).toEqual({
      problems: [],
      appended: 0,
    });
    // The mix must reach answers with data, validation refusals, parse failures, errors of
    // the API's own (a 400 or a 404 inside a 200) and the unauthenticated: else it tests little.
    const seen = [...outcomes.keys()].join(' | ');
    for (const expected of [
      /^200 data/m,
      /GRAPHQL_VALIDATION_FAILED/,
      /GRAPHQL_PARSE_FAILED/,
      /BAD_USER_INPUT|NOT_FOUND/,
      /^401 /m,
    ]) {
      expect(seen.replace(/ \| /g, '\n')).toMatch(expected);
    }
  }, 600_000);
});
