import { deciderSpec } from '../test-support/decider-spec.js';
import { accessRuleStateOf, shareAccessRulesStatus } from './share-access.state.js';
import { shareDecider } from './share.decide.js';
import type { ShareEvent } from './share.events.js';
import {
  activeShareAfter,
  availableShare,
  claimed,
  later,
  now,
} from './test-support/share-history.js';

const spec = deciderSpec(shareDecider);

const allow = (accessType: string, accessTo: string, accessLevel = 'rw', ipv6 = true) => ({
  type: 'AllowAccess' as const,
  accessId: 'r1',
  accessType,
  accessTo,
  accessLevel,
  metadata: {},
  ipv6,
  now: later,
});
const allowed: ShareEvent = {
  type: 'ShareAccessAllowed',
  data: {
    accessId: 'r1',
    accessType: 'ip',
    accessTo: '10.0.0.0/24',
    accessLevel: 'rw',
    metadata: {},
    instanceIds: ['i1'],
    createdAt: later,
  },
};
const applied: ShareEvent = {
  type: 'ShareAccessUpdated',
  data: { instanceId: 'i1', commandId: 'c-acc', ruleUpdates: {}, updatedAt: later },
};
const withRule = [...availableShare(), allowed, claimed('update_access', 'c-acc'), applied];
const denied: ShareEvent = {
  type: 'ShareAccessDenied',
  data: { accessId: 'r1', instanceIds: ['i1'], deniedAt: later },
};
const stateOf = (events: ShareEvent[]) => activeShareAfter(events);

describe('share decider: access rules', () => {
  describe('AllowAccess', () => {
    it('queues the rule on every instance; the share is syncing', () => {
      spec.given(availableShare()).when(allow('ip', '10.0.0.0/24')).then([allowed]);
      const state = stateOf([...availableShare(), allowed]);
      expect(accessRuleStateOf(state.accessRules[0]!)).toBe('queued_to_apply');
      expect(shareAccessRulesStatus(state.accessRules, state.instances)).toBe('syncing');
    });
    it.each([
      ['ip', '10.0.0.300'],
      ['ip', '10.0.0.0/33'],
      ['ip', '10.0.0.1/24'],
      ['ip', 'fe80::1%eth0'],
      ['user', 'abc'],
      ['user', 'bad/name'],
      ['user', '....'],
      ['cert', 'x'.repeat(65)],
      ['cephx', 'client.admin'],
      ['token', 'anything'],
    ])('refuses %s access to %s', (type, to) =>
      spec.given(availableShare()).when(allow(type, to)).thenThrows('invalid'),
    );
    it('refuses IPv6 before 2.38 and accepts it after', () => {
      spec
        .given(availableShare())
        .when(allow('ip', 'fd00::/64', 'rw', false))
        .thenThrows('invalid');
      const events = shareDecider.decide(
        allow('ip', 'fd00::/64', 'rw', true),
        stateOf(availableShare()),
      );
      expect(events).toHaveLength(1);
    });
    it('accepts user, cert and cephx values', () => {
      for (const [type, to] of [
        ['user', 'alice'],
        ['cert', 'client.example.org'],
        ['cephx', 'alice'],
      ]) {
        expect(shareDecider.decide(allow(type!, to!), stateOf(availableShare()))).toHaveLength(1);
      }
    });
    it('refuses an access level other than rw or ro', () =>
      spec
        .given(availableShare())
        .when(allow('ip', '10.0.0.1', 'rx'))
        .thenThrows('invalid', /level/));
    it('refuses a duplicate (type, to)', () =>
      spec
        .given(withRule)
        .when({ ...allow('ip', '10.0.0.0/24'), accessId: 'r2' })
        .thenThrows('invalid', /exists/));
    it.each([
      ['10.0.0.0/24', '10.0.0.0/24'],
      ['10.20.30.40', '10.20.30.40/32'],
      ['10.20.30.40/32', '10.20.30.40'],
      ['2001:db8::1', '2001:DB8:0:0:0:0:0:1/128'],
      ['2001:db8::/64', '2001:0db8:0000::/64'],
    ])('refuses %s when the same network is there as %s (400)', (present, asked) => {
      const rule = { ...allowed, data: { ...allowed.data, accessTo: present } };
      spec
        .given([...availableShare(), rule])
        .when({ ...allow('ip', asked), accessId: 'r2' })
        .thenThrows('invalid', /exists/);
    });
    it('allows another network of the same address', () =>
      expect(
        shareDecider.decide({ ...allow('ip', '10.0.0.0/25'), accessId: 'r2' }, stateOf(withRule)),
      ).toHaveLength(1));
    it('refuses while an instance is not settled', () =>
      spec.given(availableShare().slice(0, 2)).when(allow('ip', '10.0.0.1')).thenThrows('invalid'));
  });

  describe('the share node', () => {
    it('claims the queued changes: they become applying', () => {
      spec
        .given([...availableShare(), allowed])
        .when({
          type: 'StartDriverOperation',
          instanceId: 'i1',
          operation: 'update_access',
          commandId: 'c-acc',
          host: 'node1@b1#p1',
          now,
        })
        .then([claimed('update_access', 'c-acc')]);
      const state = stateOf([...availableShare(), allowed, claimed('update_access', 'c-acc')]);
      expect(state.accessRules[0]?.instances.i1).toBe('applying');
    });
    it('claims nothing when nothing is queued', () =>
      spec
        .given(withRule)
        .when({
          type: 'StartDriverOperation',
          instanceId: 'i1',
          operation: 'update_access',
          commandId: 'c-other',
          host: 'node1@b1#p1',
          now: later,
        })
        .thenNothing());
    it('records the driver result: active, the share active again', () => {
      spec
        .given([...availableShare(), allowed, claimed('update_access', 'c-acc')])
        .when({
          type: 'CompleteAccessUpdate',
          instanceId: 'i1',
          commandId: 'c-acc',
          ruleUpdates: {},
          now: later,
        })
        .then([applied]);
      const state = stateOf(withRule);
      expect(accessRuleStateOf(state.accessRules[0]!)).toBe('active');
      expect(shareAccessRulesStatus(state.accessRules, state.instances)).toBe('active');
    });
    it('keeps a rule the driver reports in error, and the share shows error', () => {
      const state = stateOf([
        ...availableShare(),
        allowed,
        claimed('update_access', 'c-acc'),
        {
          ...applied,
          data: { ...applied.data, ruleUpdates: { r1: { state: 'error' } } },
        } as ShareEvent,
      ]);
      expect(accessRuleStateOf(state.accessRules[0]!)).toBe('error');
      expect(shareAccessRulesStatus(state.accessRules, state.instances)).toBe('error');
    });
    it('puts the claimed rules in error when the driver call fails', () => {
      const failed: ShareEvent = {
        type: 'ShareAccessUpdateFailed',
        data: { instanceId: 'i1', commandId: 'c-acc', message: 'boom', failedAt: later },
      };
      spec
        .given([...availableShare(), allowed, claimed('update_access', 'c-acc')])
        .when({
          type: 'FailAccessUpdate',
          instanceId: 'i1',
          commandId: 'c-acc',
          message: 'boom',
          now: later,
        })
        .then([failed]);
      expect(
        stateOf([...availableShare(), allowed, claimed('update_access', 'c-acc'), failed])
          .accessRules[0]?.instances.i1,
      ).toBe('error');
    });
  });

  describe('DenyAccess', () => {
    it('queues the rule for denial', () =>
      spec.given(withRule).when({ type: 'DenyAccess', accessId: 'r1', now: later }).then([denied]));
    it('is a 404 for an unknown rule', () =>
      spec
        .given(withRule)
        .when({ type: 'DenyAccess', accessId: 'nope', now: later })
        .thenThrows('not_found'));
    it('decides nothing for a rule already being denied', () =>
      spec
        .given([...withRule, denied])
        .when({ type: 'DenyAccess', accessId: 'r1', now: later })
        .thenNothing());
    it('drops the rule once the driver removed it', () => {
      const state = stateOf([
        ...withRule,
        denied,
        claimed('update_access', 'c-deny'),
        { ...applied, data: { ...applied.data, commandId: 'c-deny' } } as ShareEvent,
      ]);
      expect(state.accessRules).toEqual([]);
    });
  });

  describe('ChangeAccessRuleMetadata (2.45)', () => {
    const change = (set: Record<string, string>, unset: string[] = [], accessId = 'r1') => ({
      type: 'ChangeAccessRuleMetadata' as const,
      accessId,
      set,
      unset,
      now: later,
    });
    const changed = (set: Record<string, string>, unset: string[] = []): ShareEvent => ({
      type: 'AccessRuleMetadataChanged',
      data: { accessId: 'r1', set, unset, updatedAt: later },
    });

    it('sets keys without involving the driver, and folds them into the rule', () => {
      spec
        .given(withRule)
        .when(change({ owner: 'ops' }))
        .then([changed({ owner: 'ops' })]);
      const rule = stateOf([...withRule, changed({ owner: 'ops', tmp: '1' }), changed({}, ['tmp'])])
        .accessRules[0];
      expect(rule?.metadata).toEqual({ owner: 'ops' });
      expect(rule?.instances).toEqual(stateOf(withRule).accessRules[0]?.instances);
    });
    it('unsets only keys the rule has, and records nothing for no change', () => {
      spec
        .given([...withRule, changed({ owner: 'ops' })])
        .when(change({}, ['owner', 'absent']))
        .then([changed({}, ['owner'])]);
      spec
        .given(withRule)
        .when(change({}, ['absent']))
        .thenNothing();
    });
    it('refuses an unknown rule and an empty value', () => {
      spec
        .given(withRule)
        .when(change({ a: 'b' }, [], 'nope'))
        .thenThrows('not_found');
      spec
        .given(withRule)
        .when(change({ a: '' }))
        .thenThrows('invalid');
    });
  });
});
