import type { Credentials } from '../credentials.js';
import { withImpliedRoles } from '../credentials.js';
import {
  MANILA_PERSONAS,
  OSLO_DECISIONS,
  PROJECT_A_TARGET,
} from '../test-support/oslo-decisions.js';
import { loadPolicy } from './load-policy.js';
import { policyNotAuthorizedMessage } from './policy-not-authorized.js';

const caller = (projectId: string, ...roles: string[]): Credentials => ({
  userId: `${roles.join('-')}@${projectId}`,
  projectId,
  roles: withImpliedRoles(roles),
  isAdmin: roles.includes('admin'),
});

const readerOfA = caller('A', 'reader');
const memberOfA = caller('A', 'member');
const memberOfB = caller('B', 'member');
const admin = caller('admin-project', 'admin');
const shareOfA = { project_id: 'A', user_id: 'someone' };
const shareOfB = { project_id: 'B', user_id: 'someone' };

describe('the default policy (secure RBAC, enforce_new_defaults=True)', () => {
  const policy = loadPolicy({ enforceNewDefaults: true });

  it('given a reader of project A, when it reads a share of A, then it may', () => {
    expect(policy.authorize('share:get', readerOfA, shareOfA)).toBe(true);
    expect(policy.authorize('share:get_all', readerOfA, shareOfA)).toBe(true);
    expect(policy.authorize('share_snapshot:get_snapshot', readerOfA, shareOfA)).toBe(true);
  });

  it('given a reader of project A, when it writes in A, then it may not', () => {
    for (const rule of [
      'share:create',
      'share:update',
      'share:delete',
      'share:extend',
      'share:allow_access',
      'share:deny_access',
      'share:create_snapshot',
      'share_replica:create',
      'share_replica:promote',
      'message:delete',
    ]) {
      expect([rule, policy.authorize(rule, readerOfA, shareOfA)]).toEqual([rule, false]);
    }
  });

  it('given a reader of project A, when it reads a share of B, then it may not', () => {
    expect(policy.authorize('share:get', readerOfA, shareOfB)).toBe(false);
  });

  it('given a member of project A, when it creates in A, then it may; in B, it may not', () => {
    expect(policy.authorize('share:create', memberOfA, shareOfA)).toBe(true);
    expect(policy.authorize('share:create', memberOfA, shareOfB)).toBe(false);
    expect(policy.authorize('share:create', memberOfB, shareOfA)).toBe(false);
  });

  it('given a member of project A, when it uses an admin action, then it may not', () => {
    expect(policy.authorize('share:reset_status', memberOfA, shareOfA)).toBe(false);
    expect(policy.authorize('share:force_delete', memberOfA, shareOfA)).toBe(false);
    expect(policy.authorize('share:create_public_share', memberOfA, shareOfA)).toBe(false);
    expect(policy.authorize('quota_set:update', memberOfA, shareOfA)).toBe(false);
    expect(policy.authorize('hawser:events:get_all', memberOfA, shareOfA)).toBe(false);
  });

  it('given an admin of another project, when it acts on any rule, then it may', () => {
    for (const { name } of policy.rules()) {
      if (name.startsWith('project-')) continue;
      expect([name, policy.authorize(name, admin, shareOfB)]).toEqual([name, true]);
    }
  });

  it("given a share's reader, when it reads the share's history, then it may; others not", () => {
    expect(policy.authorize('hawser:share_events:get', readerOfA, shareOfA)).toBe(true);
    expect(policy.authorize('hawser:share_events:get', memberOfB, shareOfA)).toBe(false);
  });

  it('given a rule name no code defines, when it is authorized, then it throws naming it', () => {
    expect(() => policy.authorize('share:teleport', admin, shareOfA)).toThrow(/"share:teleport"/);
    expect(policy.has('share:teleport')).toBe(false);
    expect(policy.has('share:create')).toBe(true);
  });
});

describe('legacy mode (enforce_new_defaults=False, as Zed)', () => {
  const policy = loadPolicy({ enforceNewDefaults: false });

  it('given a reader of project A, when it creates and deletes in A, then it may', () => {
    expect(policy.authorize('share:create', readerOfA, shareOfA)).toBe(true);
    expect(policy.authorize('share:delete', readerOfA, shareOfA)).toBe(true);
    expect(policy.authorize('share:allow_access', readerOfA, shareOfA)).toBe(true);
  });

  it('given a reader of project A, when it deletes in B, then it still may not', () => {
    expect(policy.authorize('share:delete', readerOfA, shareOfB)).toBe(false);
  });

  it('given a rule with no deprecated default, when it runs, then only the new default applies', () => {
    const noRole = { ...readerOfA, roles: [] };
    expect(policy.authorize('share:soft_delete', noRole, shareOfA)).toBe(false);
    expect(policy.authorize('share:soft_delete', memberOfA, shareOfA)).toBe(true);
  });

  it('given a member of project A, when it uses an admin action, then it still may not', () => {
    expect(policy.authorize('share:reset_status', memberOfA, shareOfA)).toBe(false);
  });
});

describe("Manila's rules against oslo.policy's own answers", () => {
  const personas = Object.entries(MANILA_PERSONAS);

  it.each([
    ['secure', true, 1],
    ['legacy', false, 2],
  ] as const)(
    "given the %s defaults, when every persona tries every rule, then each answer is oslo.policy's",
    (_mode, enforceNewDefaults, column) => {
      const policy = loadPolicy({ enforceNewDefaults });
      const answers = OSLO_DECISIONS.map((decision) => [
        decision[0],
        personas
          .filter(([, credentials]) => policy.authorize(decision[0], credentials, PROJECT_A_TARGET))
          .map(([persona]) => persona),
      ]);
      expect(answers).toEqual(OSLO_DECISIONS.map((decision) => [decision[0], decision[column]]));
    },
  );
});

describe('credentials without Keystone', () => {
  it("given noauth roles, when expanded, then Keystone's implied roles are added once", () => {
    expect(withImpliedRoles(['admin'])).toEqual(['admin', 'member', 'reader']);
    expect(withImpliedRoles(['Member'])).toEqual(['Member', 'reader']);
    expect(withImpliedRoles(['reader', 'member'])).toEqual(['reader', 'member']);
    expect(withImpliedRoles(['storage'])).toEqual(['storage']);
  });

  it('given a member listed without reader, when it reads its share, then it may once expanded', () => {
    const policy = loadPolicy({ enforceNewDefaults: true });
    const bare: Credentials = { userId: 'm', projectId: 'A', roles: ['member'], isAdmin: false };
    expect(policy.authorize('share:get', bare, shareOfA)).toBe(false);
    expect(
      policy.authorize('share:get', { ...bare, roles: withImpliedRoles(bare.roles) }, shareOfA),
    ).toBe(true);
  });

  it("given a refused rule, when the 403 is worded, then it is Manila's text", () => {
    expect(policyNotAuthorizedMessage('share:extend')).toBe(
      "Policy doesn't allow share:extend to be performed.",
    );
  });
});
