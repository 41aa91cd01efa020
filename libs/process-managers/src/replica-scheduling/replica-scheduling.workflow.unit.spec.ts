import { activeShareOf, evolveShare, initialShareState, type ShareEvent } from '#hawser/domain';
import {
  availableShare,
  later,
  replicaPlacementRejected,
  replicaRequested,
  replicaScheduledOn,
} from '../../../domain/src/share/test-support/share-history.js';
import { recordedShareEvent, workflowSpec } from '../test-support/workflow-spec.js';
import {
  replicaPlacementOutcome,
  replicaSchedulingWorkflow,
} from './replica-scheduling.workflow.js';

const spec = workflowSpec(replicaSchedulingWorkflow);
const B_HOST = 'node2@b2#p1';
const recorded = (event: ShareEvent, revision: number) => recordedShareEvent('s1', revision, event);

const readableShare = () => availableShare({ replication_type: 'readable' });
/** The share as the workflow folds it after `history`. */
const shareAfter = (history: ShareEvent[]) =>
  activeShareOf(history.reduce(evolveShare, initialShareState()));
const replicaOf = (history: ShareEvent[]) => {
  const replica = shareAfter(history).instances.find((i) => i.id === 'r1');
  if (!replica) throw new Error('no replica r1');
  return replica;
};

describe('replica scheduling workflow', () => {
  it('given a readable share, when a replica is requested, then it is placed with no pool excluded and the share hints to resolve', () => {
    const history = [...readableShare(), replicaRequested()];
    spec
      .given(...history)
      .when(recorded(replicaRequested(), 4))
      .then([
        {
          type: 'PlaceReplica',
          request: { share: shareAfter(history), replica: replicaOf(history), attemptedHosts: [] },
        },
      ]);
  });

  it("given a replica requested on an admin's only_host, then that pool is the one to consider", () => {
    const history = [...readableShare(), replicaRequested(B_HOST)];
    spec
      .given(...history)
      .when(recorded(replicaRequested(B_HOST), 4))
      .then([
        {
          type: 'PlaceReplica',
          request: {
            share: shareAfter(history),
            replica: replicaOf(history),
            attemptedHosts: [],
            onlyHost: B_HOST,
          },
        },
      ]);
  });

  it("given a replica its pool's node refused, when the refusal is handled, then it is placed again without that pool", () => {
    const history = [
      ...readableShare(),
      replicaRequested(),
      replicaScheduledOn(B_HOST),
      replicaPlacementRejected(B_HOST, [B_HOST]),
    ];
    spec
      .given(...history)
      .when(recorded(replicaPlacementRejected(B_HOST, [B_HOST]), 6))
      .then([
        {
          type: 'PlaceReplica',
          request: {
            share: shareAfter(history),
            replica: replicaOf(history),
            attemptedHosts: [B_HOST],
          },
        },
      ]);
  });

  it('given a replica placed since, when its request is handled again (a replay), then nothing is placed', () => {
    spec
      .given(...readableShare(), replicaRequested(), replicaScheduledOn(B_HOST))
      .when(recorded(replicaRequested(), 4))
      .then([]);
  });

  it('given a replica refused again since, when the older refusal is handled, then nothing is placed', () => {
    spec
      .given(
        ...readableShare(),
        replicaRequested(),
        replicaScheduledOn(B_HOST),
        replicaPlacementRejected(B_HOST, [B_HOST]),
        replicaScheduledOn('node3@b3#p1'),
        replicaPlacementRejected('node3@b3#p1', [B_HOST, 'node3@b3#p1']),
      )
      .when(recorded(replicaPlacementRejected(B_HOST, [B_HOST]), 6))
      .then([]);
  });

  it('given no such replica (deleted meanwhile), when its request is handled, then nothing is placed', () => {
    spec
      .given(...readableShare())
      .when(recorded(replicaRequested(), 4))
      .then([]);
  });

  it('when a replica is scheduled, then its pool is debited once for the replica, without reading the share', () => {
    const event = recorded(replicaScheduledOn(B_HOST), 5);
    expect(replicaSchedulingWorkflow.readsHistory(event)).toBe(false);
    spec
      .given()
      .when(event)
      .then([
        {
          type: 'ConsumePoolCapacity',
          host: B_HOST,
          key: 'r1',
          sizeGiB: 2,
          placedAt: Date.parse(later),
        },
      ]);
  });

  it("turns the scheduler's answer into the share command that records it", () => {
    expect(
      replicaPlacementOutcome(
        'r1',
        { placed: true, host: B_HOST, availabilityZone: 'az-2' },
        later,
      ),
    ).toEqual({
      type: 'ScheduleReplica',
      replicaId: 'r1',
      host: B_HOST,
      availabilityZone: 'az-2',
      now: later,
    });
    expect(
      replicaPlacementOutcome('r1', { placed: false, message: 'No valid host', detail: {} }, later),
    ).toEqual({
      type: 'FailReplicaScheduling',
      replicaId: 'r1',
      message: 'No valid host',
      detail: {},
      now: later,
    });
  });
});
