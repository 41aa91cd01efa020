import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Credentials } from '../credentials.js';
import { loadPolicy } from './load-policy.js';
import { PolicyFileError } from './policy-file-error.js';
import { PolicyHolder } from './policy-holder.js';

const readerOfA: Credentials = { userId: 'r', projectId: 'A', roles: ['reader'], isAdmin: false };
const memberOfA: Credentials = {
  userId: 'm',
  projectId: 'A',
  roles: ['member', 'reader'],
  isAdmin: false,
};
const shareOfA = { project_id: 'A' };

/** Rules r0 to r`length`, each allowing what the next allows (the last: admins) or role z. */
const referenceChain = (length: number): string =>
  Array.from({ length }, (_, i) => `"r${i}": "rule:r${i + 1} or role:z"\n`).join('') +
  `"r${length}": "role:admin"\n`;

/** YAML whose aliases expand to 9^7 strings (a "billion laughs" file). */
const aliasBomb = (): string => {
  const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
  return names
    .map((name, i) => {
      const items = i === 0 ? Array(9).fill('"x"') : Array(9).fill(`*${names[i - 1]}`);
      return `${name}: &${name} [${items.join(', ')}]\n`;
    })
    .join('');
};

describe('policy files', () => {
  let directory: string;
  let file: string;
  const write = (text: string): void => writeFileSync(file, text);
  const loadError = (enforceNewDefaults = true): PolicyFileError => {
    try {
      loadPolicy({ file, enforceNewDefaults });
    } catch (error) {
      if (error instanceof PolicyFileError) return error;
      throw error;
    }
    throw new Error('the policy loaded');
  };

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'hawser-policy-'));
    file = join(directory, 'policy.yaml');
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  describe('given overrides', () => {
    it('when the file names a rule, then its check replaces the default', () => {
      write('"share:create": "role:reader and project_id:%(project_id)s"\n');
      const policy = loadPolicy({ file, enforceNewDefaults: true });
      expect(policy.authorize('share:create', readerOfA, shareOfA)).toBe(true);
      expect(policy.authorize('share:delete', readerOfA, shareOfA)).toBe(false);
      expect(policy.warnings).toEqual([]);
    });

    it('when legacy mode is on, then an overridden rule takes the file check alone', () => {
      write('share:delete: "!"\n');
      const policy = loadPolicy({ file, enforceNewDefaults: false });
      expect(policy.authorize('share:delete', memberOfA, shareOfA)).toBe(false);
      expect(policy.authorize('share:update', readerOfA, shareOfA)).toBe(true);
    });

    it('when a persona rule is overridden, then every rule built on it follows', () => {
      write("project-member: 'role:reader and project_id:%(project_id)s'\n");
      const policy = loadPolicy({ file, enforceNewDefaults: true });
      expect(policy.authorize('share:extend', readerOfA, shareOfA)).toBe(true);
    });

    it('when the file is JSON, then it reads as YAML does', () => {
      write('{"share:get": "!", "share:get_all": ""}');
      const policy = loadPolicy({ file, enforceNewDefaults: true });
      expect(policy.authorize('share:get', memberOfA, shareOfA)).toBe(false);
      expect(policy.authorize('share:get_all', { ...readerOfA, roles: [] }, {})).toBe(true);
    });

    it('when the file is empty or only comments, then the defaults stand', () => {
      write('# nothing overridden\n');
      const policy = loadPolicy({ file, enforceNewDefaults: true });
      expect(policy.authorize('share:create', readerOfA, shareOfA)).toBe(false);
      expect(policy.authorize('share:create', memberOfA, shareOfA)).toBe(true);
    });

    it('when the file adds a rule of its own, then it is kept for references with a warning', () => {
      write('"storage-team": "role:storage"\n"share:manage": "rule:storage-team"\n');
      const policy = loadPolicy({ file, enforceNewDefaults: true });
      const storage = { ...memberOfA, roles: ['storage'] };
      expect(policy.authorize('share:manage', storage, shareOfA)).toBe(true);
      expect(policy.warnings).toEqual([
        `Policy file ${file}, rule "storage-team": no such rule is defined; ` +
          'it is kept for rule: references only',
      ]);
    });
  });

  describe('given a malformed file', () => {
    it.each<[string, string, string | undefined, RegExp]>([
      ['a list', '- share:create\n', undefined, /expected a mapping of rule names/],
      ['a scalar', 'role:admin\n', undefined, /expected a mapping of rule names/],
      ['a null check', 'share:create:\n', 'share:create', /must be a string, not null/],
      ['a numeric check', '"share:create": 1\n', 'share:create', /not number/],
      ['a list check', '"share:create": [role:admin]\n', 'share:create', /not a list/],
      ['a mapping check', '"share:create": {role: admin}\n', 'share:create', /not a mapping/],
      ['a numeric rule name', '42: "@"\n', undefined, /rule name 42 is not a string/],
      ['invalid YAML', '"share:create": "role:admin\n', undefined, /is not valid YAML/],
      ['a duplicate rule', 'a: "@"\na: "!"\n', undefined, /is not valid YAML.*unique/s],
      [
        'an unparsable check',
        '"share:create": "role:admin or"\n',
        'share:create',
        /cannot parse "role:admin or": a check is missing at the end/,
      ],
      [
        'an undefined rule: reference',
        '"share:create": "rule:nobody"\n',
        'share:create',
        /rule:nobody refers to a rule that is not defined/,
      ],
      [
        'a check nested thousands of levels deep',
        `"share:create": "${'('.repeat(5_000)}role:admin${')'.repeat(5_000)}"\n`,
        'share:create',
        /cannot parse "\({120}\.\.\.": the check nests deeper than 64 levels/,
      ],
      [
        'aliases that expand past the bound',
        aliasBomb(),
        undefined,
        /is not valid YAML: Excessive alias count/,
      ],
    ])(
      'when it holds %s, then the load is refused naming the file and rule',
      (_case, text, rule, problem) => {
        write(text);
        const error = loadError();
        expect(error.file).toBe(file);
        expect(error.rule).toBe(rule);
        expect(error.message).toMatch(problem);
        expect(error.message).toContain(`Policy file ${file}`);
        if (rule) expect(error.message).toContain(`rule "${rule}"`);
      },
    );

    it('when the file name is empty, then it reads as no file: the defaults alone', () => {
      const policy = loadPolicy({ file: '', enforceNewDefaults: true });
      expect(policy.authorize('share:create', readerOfA, shareOfA)).toBe(false);
      expect(policy.authorize('share:create', memberOfA, shareOfA)).toBe(true);
    });

    it('when the file does not exist, then the load is refused naming it', () => {
      file = join(directory, 'missing.yaml');
      expect(loadError().message).toMatch(/^Policy file .*missing\.yaml: cannot be read \(ENOENT/);
    });

    it('when a rule refers to itself, then the loop is refused', () => {
      write('"share:create": "rule:share:create or role:admin"\n');
      expect(loadError().message).toBe(
        `Policy file ${file}, rule "share:create": rule: references loop ` +
          '(rule:share:create -> rule:share:create)',
      );
    });

    it('when rules refer to each other in a ring, then the loop is refused naming a rule of the file', () => {
      write('"admin_api": "rule:default"\n"admin_or_owner": "rule:admin_api"\n');
      const error = loadError(false);
      expect(error.rule).toBe('admin_or_owner');
      expect(error.message).toContain(
        'rule:admin_or_owner -> rule:admin_api -> rule:default -> rule:admin_or_owner',
      );
    });

    it('when rule: references chain thousands of rules deep, then the depth is refused', () => {
      write(`${referenceChain(5_000)}"share:create": "rule:r0"\n`);
      const error = loadError();
      // The first rule found nesting too deep: r4968 -> ... -> r5000 is 32 references and 33 ors.
      expect(error.rule).toBe('r4967');
      expect(error.message).toContain(
        'the check nests deeper than 64 levels of not, and, or and rule: references ' +
          '(rule:r4967 -> rule:r4968 -> rule:r4969 -> rule:r4970 -> ... -> rule:r4998 -> rule:r4999 -> rule:r5000)',
      );
    });

    it('when a check nests within bounds only rule by rule, then the whole depth is refused', () => {
      // 33 levels each, 67 with the reference between them.
      const nots = 'not '.repeat(33);
      write(`"deep": "${nots}role:admin"\n"share:create": "${nots}rule:deep"\n`);
      expect(loadError().message).toContain('(rule:share:create -> rule:deep)');
    });

    it('when rules nest up to the bound, then the policy loads and checks them', () => {
      // 31 rules, each one level of or above the next: 30 references and 31 ors, under 64.
      write(`${referenceChain(30)}"share:create": "rule:r0"\n`);
      const policy = loadPolicy({ file, enforceNewDefaults: true });
      expect(policy.authorize('share:create', { ...memberOfA, roles: ['admin'] }, shareOfA)).toBe(
        true,
      );
      expect(policy.authorize('share:create', memberOfA, shareOfA)).toBe(false);
    });

    it('when a check ors more operands than a call takes arguments, then it loads and checks', () => {
      const roles = Array.from({ length: 200_000 }, (_, i) => `role:r${i}`);
      write(`"share:create": "${roles.join(' or ')}"\n`);
      const policy = loadPolicy({ file, enforceNewDefaults: true });
      expect(policy.authorize('share:create', { ...memberOfA, roles: ['r199999'] }, shareOfA)).toBe(
        true,
      );
    });

    it('when a check names an object member as a rule, then it is an undefined rule', () => {
      write('"share:create": "rule:constructor"\n');
      expect(loadError().message).toMatch(/rule:constructor refers to a rule that is not defined/);
    });
  });

  describe('given a holder (reload on SIGHUP)', () => {
    it('when the file is fixed and reloaded, then the new policy is in force', () => {
      write('"share:create": "!"\n');
      const holder = new PolicyHolder({ file, enforceNewDefaults: true });
      expect(holder.current.authorize('share:create', memberOfA, shareOfA)).toBe(false);

      write('"share:create": "@"\n');
      expect(holder.reload()).toEqual({ ok: true, warnings: [] });
      expect(holder.current.authorize('share:create', readerOfA, shareOfA)).toBe(true);
    });

    it('when the file turns malformed, then reload reports it and the previous policy stays', () => {
      write('"share:create": "!"\n');
      const holder = new PolicyHolder({ file, enforceNewDefaults: true });
      const before = holder.current;

      write('"share:create": "rule:share:create"\n');
      const outcome = holder.reload();

      expect(outcome.ok).toBe(false);
      expect(!outcome.ok && outcome.error).toBeInstanceOf(PolicyFileError);
      expect(!outcome.ok && outcome.error.rule).toBe('share:create');
      expect(holder.current).toBe(before);
      expect(holder.current.authorize('share:create', memberOfA, shareOfA)).toBe(false);
    });

    it('when the file turns thousands of levels deep, then reload reports it and the policy stays', () => {
      write('"share:create": "!"\n');
      const holder = new PolicyHolder({ file, enforceNewDefaults: true });
      const before = holder.current;

      write(`"share:create": "${'not '.repeat(50_000)}role:admin"\n`);
      const outcome = holder.reload();

      expect(!outcome.ok && outcome.error.message).toMatch(/nests deeper than 64 levels/);
      expect(holder.current).toBe(before);
    });

    it('when the file is malformed at start, then construction throws', () => {
      write('[]');
      expect(() => new PolicyHolder({ file, enforceNewDefaults: true })).toThrow(PolicyFileError);
    });
  });
});
