import { capabilitiesOf, type ShareEvent } from '#hawser/domain';
import type { Filter, FindOptions } from '#hawser/read-models';
import { projectionSpec } from '../test-support/projection-spec.js';
import {
  SHARE_INSTANCES,
  SHARES,
  shareDocumentOf,
  type ShareInstanceDocument,
  type ShareRecord,
} from './share.documents.js';
import { sharesProjection } from './shares.projection.js';
import { findShareInstances, getShareInstance } from './stored-share-instance.js';

const at = '2026-11-22T10:00:00.000Z';
const requested = (shareId: string, instanceId: string, projectId = 'p1'): ShareEvent => ({
  type: 'ShareRequested',
  data: {
    shareId,
    instanceId,
    projectId,
    userId: 'u1',
    name: `name-${shareId}`,
    description: null,
    size: 2,
    shareProto: 'NFS',
    shareType: { id: 't1', name: 'gold', extraSpecs: { snapshot_support: 'True' } },
    capabilities: capabilitiesOf({ snapshot_support: 'True' }),
    availabilityZone: null,
    metadata: { a: '1' },
    isPublic: false,
    snapshotId: null,
    schedulerHints: null,
    createdAt: at,
  },
});
const scheduled = (instanceId: string): ShareEvent => ({
  type: 'ShareScheduled',
  data: { instanceId, host: 'n@b#p', availabilityZone: 'az-1', size: 2, scheduledAt: at },
});
const started = (instanceId: string, operation: 'create_share' | 'delete_share'): ShareEvent => ({
  type: 'ShareDriverOperationStarted',
  data: { instanceId, operation, commandId: `c-${operation}`, host: 'n@b#p', startedAt: at },
});
const created = (instanceId: string): ShareEvent => ({
  type: 'ShareCreated',
  data: {
    instanceId,
    commandId: 'c-create_share',
    exportLocations: [{ id: 'e1', path: 'n:/p/x', preferred: true, isAdminOnly: false }],
    createdAt: '2026-11-22T10:00:01.000Z',
  },
});

/** Share s1 placed, its creation claimed by the node and not yet done. */
const creationClaimedByNode = {
  'share-s1': [requested('s1', 'i1'), scheduled('i1'), started('i1', 'create_share')],
};

describe('shares and share-instances projections', () => {
  it("given a stream holding only a refused request's fence, then no share is listed", () =>
    projectionSpec(sharesProjection)
      .given({
        'share-s1': [{ type: 'ReservationExpired', data: { reservationId: 's1', expiredAt: at } }],
        'share-s2': [requested('s2', 'i2')],
      })
      .then(async (docs) => {
        expect(await docs.get(SHARES, 's1')).toBeUndefined();
        expect((await docs.find(SHARES)).map((d) => d.id)).toEqual(['s2']);
        expect((await docs.find(SHARE_INSTANCES)).map((d) => d.id)).toEqual(['i2']);
      }));

  it('given a requested share, then it is listed as creating with the type capabilities', () =>
    projectionSpec(sharesProjection)
      .given({ 'share-s1': [requested('s1', 'i1')] })
      .then(async (docs) => {
        const share = shareDocumentOf((await docs.get<ShareRecord>(SHARES, 's1')) as ShareRecord);
        expect(share).toMatchObject({
          status: 'creating',
          host: '',
          size: 2,
          share_type_name: 'gold',
          snapshot_support: true,
          create_share_from_snapshot_support: false,
          metadata: { a: '1' },
          export_locations: [],
          revision: 0,
        });
      }));

  it('given a created share, then status, host, progress and export locations follow its instance', () =>
    projectionSpec(sharesProjection)
      .given(creationClaimedByNode)
      .when({ 'share-s1': [created('i1')] })
      .then(async (docs) => {
        const share = shareDocumentOf((await docs.get<ShareRecord>(SHARES, 's1')) as ShareRecord);
        expect(share).toMatchObject({
          status: 'available',
          host: 'n@b#p',
          availability_zone: 'az-1',
          progress: '100%',
          updated_at: '2026-11-22T10:00:01.000Z',
          export_locations: [
            {
              id: 'e1',
              path: 'n:/p/x',
              preferred: true,
              is_admin_only: false,
              share_instance_id: 'i1',
            },
          ],
        });
        const instance = await getShareInstance(docs, 'i1');
        expect(instance).toMatchObject({
          share_id: 's1',
          status: 'available',
          pending_operation: null,
        });
      }));

  it('given a claimed operation, then the instance shows it as pending (for start-up recovery)', () =>
    projectionSpec(sharesProjection)
      .given(creationClaimedByNode)
      .then(async (docs) => {
        const pending = await findShareInstances(docs, {
          pending_operation: { $ne: null },
        });
        expect(pending.map((i) => [i.id, i.pending_operation])).toEqual([
          ['i1', { operation: 'create_share', command_id: 'c-create_share' }],
        ]);
      }));

  it('given a created share, then its instance stores only what it is found by, and reads whole from the share', () =>
    projectionSpec(sharesProjection)
      .given(creationClaimedByNode)
      .when({ 'share-s1': [created('i1')] })
      .then(async (docs) => {
        // Not a replica: only the replica listing finds instances by project.
        expect(await docs.get(SHARE_INSTANCES, 'i1')).toStrictEqual({
          id: 'i1',
          share_id: 's1',
          status: 'available',
          host: 'n@b#p',
          created_at: at,
        });
        expect(await getShareInstance(docs, 'i1')).toStrictEqual({
          id: 'i1',
          revision: 3,
          share_id: 's1',
          project_id: 'p1',
          status: 'available',
          host: 'n@b#p',
          availability_zone: 'az-1',
          replica_state: null,
          progress: '100%',
          share_type_id: 't1',
          share_network_id: null,
          share_server_id: null,
          access_rules_status: 'active',
          cast_rules_to_readonly: false,
          export_locations: [
            {
              id: 'e1',
              path: 'n:/p/x',
              preferred: true,
              is_admin_only: false,
              share_instance_id: 'i1',
            },
          ],
          pending_operation: null,
          created_at: at,
          updated_at: '2026-11-22T10:00:01.000Z',
        });
      }));

  it("given one instance in flight and one settled, then the in-flight one keeps its status apart, and the share node's polls find it on a sparse index", () =>
    projectionSpec(sharesProjection)
      .given({
        ...creationClaimedByNode,
        'share-s2': [requested('s2', 'i2'), scheduled('i2'), created('i2')],
      })
      .then(async (docs) => {
        expect(await docs.get(SHARE_INSTANCES, 'i1')).toMatchObject({
          status: 'creating',
          transitional_status: 'creating',
        });
        expect(await docs.get(SHARE_INSTANCES, 'i2')).not.toHaveProperty('transitional_status');
        const inFlight = await findShareInstances(docs, { transitional_status: 'creating' });
        expect(inFlight.map((instance) => instance.id)).toEqual(['i1']);

        const reads: [Filter, string, FindOptions][] = [
          [{ transitional_status: 'creating_from_snapshot' }, 'transitional_status', {}],
          [{ transitional_status: 'migrating_to' }, 'transitional_status', {}],
          [
            { replica_state: { $in: ['active', 'in_sync', 'out_of_sync', 'error'] } },
            'replica_state',
            {},
          ],
          // The start-up recovery, sorted on its field as the share node asks it.
          [
            { pending_operation: { $ne: null } },
            'pending_operation',
            { sort: [['pending_operation', 1]] },
          ],
        ];
        for (const [filter, field, options] of reads) {
          expect(docs.queryPlan(SHARE_INSTANCES, filter, options).join('\n')).toMatch(
            `USING INDEX collection:${SHARE_INSTANCES}:by:${field},id:sparse`,
          );
        }
        // The replica listing walks a page of replicas in order, newest first: a member's its
        // project's, an admin's every project's; no sort, no other instances.
        const newestFirst = (field: string): FindOptions => ({
          sort: [
            [field, -1],
            ['id', -1],
          ],
          skip: 1000,
          limit: 1000,
        });
        expect(
          docs.queryPlan(
            SHARE_INSTANCES,
            { replica_state: { $ne: null }, project_id: 'p1' },
            newestFirst('created_at'),
          ),
        ).toEqual([
          `SEARCH collection:${SHARE_INSTANCES} USING INDEX collection:${SHARE_INSTANCES}:by:project_id,created_at,id:sparse (<expr>=?)`,
        ]);
        expect(
          docs.queryPlan(
            SHARE_INSTANCES,
            { replica_state: { $ne: null } },
            newestFirst('created_at'),
          ),
        ).toEqual([
          `SCAN collection:${SHARE_INSTANCES} USING INDEX collection:${SHARE_INSTANCES}:by:created_at,id:sparse-on:replica_state`,
        ]);
      }));

  it('given an instance document stored whole (before instances were stored by what finds them), when it is read, then it reads from its share all the same', () =>
    projectionSpec(sharesProjection)
      .given({ 'share-s1': [requested('s1', 'i1'), scheduled('i1')] })
      .then(async (docs) => {
        const current = await getShareInstance(docs, 'i1');
        const whole = {
          ...(current as ShareInstanceDocument),
          export_locations: [],
          progress: '5%',
        };
        await docs.write([{ kind: 'put', collection: SHARE_INSTANCES, document: whole }]);

        expect(await getShareInstance(docs, 'i1')).toStrictEqual(current);
      }));

  it('given a deleted share, then it and its instances are gone while others stay', () =>
    projectionSpec(sharesProjection)
      .given({
        'share-s1': [
          requested('s1', 'i1'),
          scheduled('i1'),
          started('i1', 'create_share'),
          created('i1'),
        ],
        'share-s2': [requested('s2', 'i2', 'p2')],
      })
      .when({
        'share-s1': [
          {
            type: 'ShareDeletionRequested',
            data: { instanceIds: ['i1'], force: false, requestedAt: at },
          },
          started('i1', 'delete_share'),
          {
            type: 'ShareInstanceDeleted',
            data: { instanceId: 'i1', commandId: 'c-delete_share', deletedAt: at },
          },
          { type: 'ShareDeleted', data: { shareId: 's1', deletedAt: at } },
        ],
      })
      .then(async (docs) => {
        expect(await docs.get(SHARES, 's1')).toBeUndefined();
        expect(await docs.get(SHARE_INSTANCES, 'i1')).toBeUndefined();
        expect((await docs.find<ShareRecord>(SHARES, {})).map((s) => s.id)).toEqual(['s2']);
      }));
});
