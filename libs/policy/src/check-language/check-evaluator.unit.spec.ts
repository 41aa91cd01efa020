import type { Credentials, PolicyTarget } from '../credentials.js';
import { evaluateCheck } from './check-evaluator.js';
import { parseCheck } from './check-parser.js';
import type { CheckNode } from './check-tree.js';

const alice: Credentials = {
  userId: 'alice',
  projectId: 'A',
  roles: ['Member', 'reader'],
  isAdmin: false,
};

const allows = (
  check: string,
  target: PolicyTarget = {},
  credentials: Credentials = alice,
  rules: ReadonlyMap<string, CheckNode> = new Map(),
): boolean => evaluateCheck(parseCheck(check), { rules, credentials, target });

// The expectations agree with oslo.policy 4.0's _parser.parse_rule(check)(target, creds) on the
// same credentials and targets.
describe('evaluateCheck: oslo.policy semantics', () => {
  describe('given role checks', () => {
    it('when the role is held in another letter case, then it matches', () => {
      expect(allows('role:member')).toBe(true);
      expect(allows('role:READER')).toBe(true);
    });

    it('when the role is not held, then it does not match', () => {
      expect(allows('role:admin')).toBe(false);
    });

    it('when the role comes from the target, then it is substituted first', () => {
      expect(allows('role:%(needed)s', { needed: 'reader' })).toBe(true);
      expect(allows('role:%(needed)s', {})).toBe(false);
    });
  });

  describe('given credential (generic) checks', () => {
    it("when the target's project is the caller's, then project_id matches", () => {
      expect(allows('project_id:%(project_id)s', { project_id: 'A' })).toBe(true);
    });

    it("when the target's project is another, then project_id does not match", () => {
      expect(allows('project_id:%(project_id)s', { project_id: 'B' })).toBe(false);
    });

    it('when the target lacks the field, is undefined or null, then the check fails', () => {
      expect(allows('project_id:%(project_id)s', {})).toBe(false);
      expect(allows('project_id:%(project_id)s', { project_id: undefined })).toBe(false);
      expect(allows('project_id:%(project_id)s', { project_id: null })).toBe(false);
    });

    it('when neither side has a value, then undefined never matches undefined', () => {
      const nobody = { ...alice, userId: undefined as unknown as string };
      expect(allows('user_id:%(user_id)s', {}, nobody)).toBe(false);
      expect(allows('nosuch:%(nosuch)s', {})).toBe(false);
    });

    it('when the field is an object member name, then it is an ordinary missing field', () => {
      expect(allows('project_id:%(constructor)s', {})).toBe(false);
      expect(allows('constructor:%(project_id)s', { project_id: 'A' })).toBe(false);
    });

    it('when the match is a literal, then the credential is compared with it', () => {
      expect(allows('user_id:alice')).toBe(true);
      expect(allows('user_id:bob')).toBe(false);
    });

    it('when several fields are substituted into one match, then all are', () => {
      const caller = { ...alice, userId: 'A-alice' };
      expect(
        allows('user_id:%(project_id)s-%(user)s', { project_id: 'A', user: 'alice' }, caller),
      ).toBe(true);
      expect(allows('project_id:100%%', {}, { ...alice, projectId: '100%' })).toBe(true);
    });

    it('when the credential is the role list, then any element matches, case-sensitively', () => {
      expect(allows('roles:reader')).toBe(true);
      expect(allows('roles:member')).toBe(false);
    });

    it("when is_admin is checked, then it compares Python's True/False", () => {
      expect(allows('is_admin:False')).toBe(true);
      expect(allows('is_admin:True')).toBe(false);
      expect(allows('is_admin:True', {}, { ...alice, isAdmin: true })).toBe(true);
    });

    it("when the kind is a literal, then the target's value is compared with it", () => {
      expect(allows('True:%(enabled)s', { enabled: true })).toBe(true);
      expect(allows('True:%(enabled)s', { enabled: false })).toBe(false);
      expect(allows("'A':%(project_id)s", { project_id: 'A' })).toBe(true);
      expect(allows('42:%(size)s', { size: 42 })).toBe(true);
      expect(allows('42:%(size)s', { size: 43 })).toBe(false);
    });
  });

  describe('given operators', () => {
    it.each<[string, boolean]>([
      ['@', true],
      ['!', false],
      ['', true],
      ['@ and !', false],
      ['@ or !', true],
      ['not !', true],
      ['! or @ and !', false],
      ['@ or ! and !', true],
      ['not @ or @', true],
      ['not (@ or @)', false],
      ['(@ or !) and !', false],
      ['! and ! or @', true],
    ])('when %j runs, then it answers %s', (check, expected) => {
      expect(allows(check)).toBe(expected);
    });
  });

  describe('given rule references', () => {
    const rules = new Map<string, CheckNode>([
      ['is-reader', parseCheck('role:reader')],
      ['owner', parseCheck('project_id:%(project_id)s')],
    ]);

    it('when a rule is referenced, then its check runs on the same target', () => {
      expect(allows('rule:is-reader and rule:owner', { project_id: 'A' }, alice, rules)).toBe(true);
      expect(allows('rule:is-reader and rule:owner', { project_id: 'B' }, alice, rules)).toBe(
        false,
      );
    });
  });
});
