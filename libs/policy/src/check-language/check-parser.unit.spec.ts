import { parseCheck } from './check-parser.js';
import { CheckSyntaxError } from './check-syntax-error.js';
import type { CheckNode } from './check-tree.js';

const role = (match: string): CheckNode => ({ kind: 'role', match });

describe('parseCheck: the check language', () => {
  describe('given a single check', () => {
    it.each<[string, CheckNode]>([
      ['@', { kind: 'always' }],
      ['!', { kind: 'never' }],
      ['', { kind: 'always' }],
      ['role:admin', role('admin')],
      ['role:compute:admin', role('compute:admin')],
      ['rule:admin_api', { kind: 'rule', rule: 'admin_api' }],
      [
        'project_id:%(project_id)s',
        { kind: 'credential', path: ['project_id'], match: '%(project_id)s' },
      ],
      ['user_id:alice', { kind: 'credential', path: ['user_id'], match: 'alice' }],
      ['is_admin:True', { kind: 'credential', path: ['is_admin'], match: 'True' }],
      ['True:%(enabled)s', { kind: 'literal', value: 'True', match: '%(enabled)s' }],
      ["'A':%(project_id)s", { kind: 'literal', value: 'A', match: '%(project_id)s' }],
      ['42:%(size)s', { kind: 'literal', value: '42', match: '%(size)s' }],
    ])('when %j is parsed, then it is one check', (text, tree) => {
      expect(parseCheck(text)).toEqual(tree);
    });
  });

  describe('given operators', () => {
    it('when checks are joined by and, then one and-node holds them all', () => {
      expect(parseCheck('role:a and role:b and role:c')).toEqual({
        kind: 'and',
        operands: [role('a'), role('b'), role('c')],
      });
    });

    it('when checks are joined by or, then one or-node holds them all', () => {
      expect(parseCheck('role:a or role:b or role:c')).toEqual({
        kind: 'or',
        operands: [role('a'), role('b'), role('c')],
      });
    });

    it('when operators are written in capitals, then they are still operators', () => {
      expect(parseCheck('role:a AND NOT role:b')).toEqual({
        kind: 'and',
        operands: [role('a'), { kind: 'not', operand: role('b') }],
      });
    });

    it('when and and or are mixed, then and binds tighter', () => {
      expect(parseCheck('role:a or role:b and role:c or role:d')).toEqual({
        kind: 'or',
        operands: [role('a'), { kind: 'and', operands: [role('b'), role('c')] }, role('d')],
      });
    });

    it('when not precedes and, then it negates only the next check', () => {
      expect(parseCheck('not role:a and role:b')).toEqual({
        kind: 'and',
        operands: [{ kind: 'not', operand: role('a') }, role('b')],
      });
    });

    it('when not is repeated, then each negates what follows', () => {
      expect(parseCheck('not not role:a')).toEqual({
        kind: 'not',
        operand: { kind: 'not', operand: role('a') },
      });
    });

    it('when parentheses group an or inside an and, then the group is one operand', () => {
      expect(parseCheck('role:a and (role:b or role:c)')).toEqual({
        kind: 'and',
        operands: [role('a'), { kind: 'or', operands: [role('b'), role('c')] }],
      });
    });

    it('when not precedes parentheses, then it negates the whole group', () => {
      expect(parseCheck('not (role:a or role:b)')).toEqual({
        kind: 'not',
        operand: { kind: 'or', operands: [role('a'), role('b')] },
      });
    });

    it("when parentheses touch the checks and nest, then Manila's own form reads", () => {
      expect(parseCheck('((rule:context_is_admin)) or (rule:project-member)')).toEqual({
        kind: 'or',
        operands: [
          { kind: 'rule', rule: 'context_is_admin' },
          { kind: 'rule', rule: 'project-member' },
        ],
      });
    });
  });

  describe('given deep nesting', () => {
    it('when parentheses and not nest 64 levels, then the check parses', () => {
      const text = `${'not ('.repeat(32)}role:a${')'.repeat(32)}`;
      let node = parseCheck(text);
      let nots = 0;
      while (node.kind === 'not') {
        nots += 1;
        node = node.operand;
      }
      expect(nots).toBe(32);
      expect(node).toEqual({ kind: 'role', match: 'a' });
    });
  });

  describe('given a malformed check', () => {
    it.each<[string, RegExp]>([
      ['   ', /blank/],
      ['role:a and', /missing at the end/],
      ['or role:a', /expected a check but found 'or'/],
      ['role:a role:b', /unexpected "role:b"/],
      ['(role:a or role:b', /'\)' is missing/],
      ['role:a)', /unexpected '\)'/],
      ['()', /expected a check but found '\)'/],
      ['admin', /"admin" is not a check/],
      ['rule:', /names no rule/],
      ['http:%(url)s', /http checks are not supported/],
      ['.project:x', /does not name a credential field/],
      ['project_id:%(project_id)d', /only %\(field\)s substitutions/],
      ["role:a or 'quoted'", /quoted string/],
      [`${'('.repeat(65)}role:a${')'.repeat(65)}`, /nests deeper than 64 levels/],
      [`${'not '.repeat(65)}role:a`, /nests deeper than 64 levels/],
      [`${'('.repeat(100_000)}role:a`, /nests deeper than 64 levels/],
    ])('when %j is parsed, then CheckSyntaxError says %s', (text, message) => {
      expect(() => parseCheck(text)).toThrow(CheckSyntaxError);
      expect(() => parseCheck(text)).toThrow(message);
    });
  });
});
