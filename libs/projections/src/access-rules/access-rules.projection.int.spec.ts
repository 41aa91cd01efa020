import { capabilitiesOf, type ShareEvent } from '#hawser/domain';
import { projectionSpec } from '../test-support/projection-spec.js';
import { ACCESS_RULES, type AccessRuleDocument } from './access-rule.documents.js';
import { sharesProjection } from '../shares/shares.projection.js';

const at = '2026-11-22T10:00:00.000Z';
const later = '2026-11-22T10:01:00.000Z';
const share: ShareEvent[] = [
  {
    type: 'ShareRequested',
    data: {
      shareId: 's1',
      instanceId: 'i1',
      projectId: 'p1',
      userId: 'u1',
      name: 'a',
      description: null,
      size: 1,
      shareProto: 'NFS',
      shareType: { id: 't1', name: 'gold', extraSpecs: {} },
      capabilities: capabilitiesOf({}),
      availabilityZone: null,
      metadata: {},
      isPublic: false,
      snapshotId: null,
      schedulerHints: null,
      createdAt: at,
    },
  },
];
const allowed = (accessId: string, accessTo: string): ShareEvent => ({
  type: 'ShareAccessAllowed',
  data: {
    accessId,
    accessType: 'ip',
    accessTo,
    accessLevel: 'ro',
    metadata: { k: 'v' },
    instanceIds: ['i1'],
    createdAt: at,
  },
});
const claim = (commandId: string): ShareEvent => ({
  type: 'ShareDriverOperationStarted',
  data: { instanceId: 'i1', operation: 'update_access', commandId, host: 'n@b#p', startedAt: at },
});
const updated = (commandId: string, ruleUpdates = {}): ShareEvent => ({
  type: 'ShareAccessUpdated',
  data: { instanceId: 'i1', commandId, ruleUpdates, updatedAt: later },
});

describe('access-rules projection', () => {
  it('given an allowed rule, then it is listed queued_to_apply with its metadata', () =>
    projectionSpec(sharesProjection)
      .given({ 'share-s1': [...share, allowed('r1', '10.0.0.1')] })
      .then(async (docs) => {
        expect(await docs.get<AccessRuleDocument>(ACCESS_RULES, 'r1')).toMatchObject({
          share_id: 's1',
          project_id: 'p1',
          access_type: 'ip',
          access_to: '10.0.0.1',
          access_level: 'ro',
          state: 'queued_to_apply',
          instance_states: { i1: 'queued_to_apply' },
          metadata: { k: 'v' },
        });
      }));

  it('when the driver applied it, then it is active; one in error shows error', () =>
    projectionSpec(sharesProjection)
      .given({ 'share-s1': [...share, allowed('r1', '10.0.0.1'), allowed('r2', '10.0.0.2')] })
      .when({ 'share-s1': [claim('c1'), updated('c1', { r2: { state: 'error' } })] })
      .then(async (docs) => {
        expect((await docs.get<AccessRuleDocument>(ACCESS_RULES, 'r1'))?.state).toBe('active');
        expect((await docs.get<AccessRuleDocument>(ACCESS_RULES, 'r2'))?.state).toBe('error');
      }));

  it('when a denied rule was removed by the driver, then it leaves the listing', () =>
    projectionSpec(sharesProjection)
      .given({ 'share-s1': [...share, allowed('r1', '10.0.0.1'), claim('c1'), updated('c1')] })
      .when({
        'share-s1': [
          {
            type: 'ShareAccessDenied',
            data: { accessId: 'r1', instanceIds: ['i1'], deniedAt: later },
          },
          claim('c2'),
          updated('c2'),
        ],
      })
      .then(async (docs) => {
        expect(await docs.find(ACCESS_RULES, { share_id: 's1' })).toEqual([]);
      }));

  it('when its share is deleted, then its rules leave the listing with it', () =>
    projectionSpec(sharesProjection)
      .given({ 'share-s1': [...share, allowed('r1', '10.0.0.1'), claim('c1'), updated('c1')] })
      .when({ 'share-s1': [{ type: 'ShareDeleted', data: { shareId: 's1', deletedAt: later } }] })
      .then(async (docs) => {
        expect(await docs.find(ACCESS_RULES, { share_id: 's1' })).toEqual([]);
      }));
});
