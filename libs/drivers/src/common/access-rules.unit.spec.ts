import type { AccessRule, ShareInstanceRef } from '../contract/share-driver.js';
import { accessRuleProblem, applyAccessRequest } from './access-rules.js';

const nfsShare: ShareInstanceRef = {
  shareId: 's',
  instanceId: 'i',
  sizeGiB: 1,
  protocol: 'NFS',
  host: 'h@b#p',
};

const ip = (accessId: string, accessTo: string, accessLevel: 'rw' | 'ro' = 'rw'): AccessRule => ({
  accessId,
  accessType: 'ip',
  accessTo,
  accessLevel,
});

describe('access rules', () => {
  it.each([
    ['10.0.0.1', null],
    ['10.0.0.0/8', null],
    ['0.0.0.0/0', null],
    ['2001:db8::1', null],
    ['2001:db8::/128', null],
    ['10.0.0.0/33', 'not an IP'],
    ['2001:db8::/129', 'not an IP'],
    ['10.0.0.0/8/8', 'not an IP'],
    ['host.example.com', 'not an IP'],
    ['10.0.0.256', 'not an IP'],
  ])('an NFS ip rule for %s is %s', (accessTo, problem) => {
    const found = accessRuleProblem(ip('r', accessTo), 'NFS');
    if (problem === null) expect(found).toBeNull();
    else expect(found).toContain(problem);
  });

  it('a CIFS share accepts user rules at either level and ip rules as rw only', () => {
    const user: AccessRule = {
      accessId: 'u',
      accessType: 'user',
      accessTo: 'DOMAIN\\alice',
      accessLevel: 'ro',
    };

    expect(accessRuleProblem(user, 'CIFS')).toBeNull();
    expect(accessRuleProblem(ip('r', '10.0.0.0/24'), 'CIFS')).toBeNull();
    expect(accessRuleProblem(ip('r', '10.0.0.1', 'ro'), 'CIFS')).toContain('rw only');
    expect(accessRuleProblem(ip('r', 'nowhere'), 'CIFS')).toContain('not an IP');
    expect(accessRuleProblem({ ...user, accessType: 'cert' }, 'CIFS')).toContain(
      'only accept user and ip rules',
    );
    expect(accessRuleProblem({ ...user, accessTo: 'bad user' }, 'CIFS')).toContain('not a valid');
    expect(accessRuleProblem({ ...user, accessTo: '@wheel' }, 'CIFS')).toContain('not a valid');
  });

  it('given current rules, when rules are added and deleted, then the delta applies and unknown deletions are ignored', () => {
    const current = [ip('a', '10.0.0.1'), ip('b', '10.0.0.2')];

    const change = applyAccessRequest(current, {
      commandId: 'c',
      share: nfsShare,
      accessRules: [],
      addRules: [ip('c', '10.0.0.3', 'ro')],
      deleteRules: [ip('a', '10.0.0.1'), ip('never', '10.9.9.9')],
      castRulesToReadonly: false,
    });

    expect(change.rules.map((r) => [r.accessId, r.accessLevel])).toEqual([
      ['b', 'rw'],
      ['c', 'ro'],
    ]);
    expect(change.ruleUpdates).toEqual({ b: { state: 'active' }, c: { state: 'active' } });
  });

  it('when nothing is added or deleted, then the listed rules replace the current ones', () => {
    const change = applyAccessRequest([ip('a', '10.0.0.1')], {
      commandId: 'c',
      share: nfsShare,
      accessRules: [ip('z', '192.168.0.0/16')],
      addRules: [],
      deleteRules: [],
      castRulesToReadonly: true,
    });

    expect(change.rules).toEqual([{ ...ip('z', '192.168.0.0/16'), accessLevel: 'ro' }]);
  });
});
