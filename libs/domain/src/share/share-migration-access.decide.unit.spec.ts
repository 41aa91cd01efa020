import { deciderSpec } from '../test-support/decider-spec.js';
import { castsRulesToReadonly } from './share-replica.state.js';
import { migrationAccessStep } from './share-migration.decide.js';
import { shareDecider } from './share.decide.js';
import type { ShareEvent } from './share.events.js';
import type { ActiveShare } from './share.state.js';
import {
  DEST_HOST,
  hostAccepted,
  methodChosen,
  migrationFailed,
  migrationStarted,
  migrationStartClaim,
} from './test-support/migration-history.js';
import {
  activeShareAfter,
  availableShare,
  HOST,
  later,
  now,
  operationStarted,
  ruleAllowed,
} from './test-support/share-history.js';

const spec = deciderSpec(shareDecider);

/** A rule `rw` applied on the source i1 before the migration. */
const ruleApplied: ShareEvent[] = [
  ruleAllowed,
  operationStarted('i1', HOST, 'update_access', 'c-allow', now),
  {
    type: 'ShareAccessUpdated',
    data: { instanceId: 'i1', commandId: 'c-allow', ruleUpdates: {}, updatedAt: now },
  },
];
const castReadOnly: ShareEvent = {
  type: 'ShareMigrationReadOnlyAccessQueued',
  data: { instanceId: 'i1', castAt: later },
};
const accepted = [...availableShare(), ...ruleApplied, migrationStarted(), hostAccepted];
const cast = [...accepted, methodChosen('host'), castReadOnly];
/** The source's node applied the rules read-only. */
const castApplied: ShareEvent[] = [
  operationStarted('i1', HOST, 'update_access', 'c-cast', later),
  {
    type: 'ShareAccessUpdated',
    data: { instanceId: 'i1', commandId: 'c-cast', ruleUpdates: {}, updatedAt: later },
  },
];
const claimStart = migrationStartClaim;
const ruleOn = (share: ActiveShare, instanceId: string) =>
  share.accessRules.find((r) => r.id === 'a1')?.instances[instanceId];
const source = (share: ActiveShare) => share.instances.find((i) => i.id === 'i1')!;
const step = (events: ShareEvent[]) => {
  const share = activeShareAfter(events);
  return migrationAccessStep(share, source(share));
};

describe("share decider: the source's access rules during a migration (cast_rules_to_readonly)", () => {
  it('a copy that cannot keep the share writable casts the source rules read-only with the method', () => {
    spec
      .given(accepted)
      .when({
        type: 'ChooseShareMigrationMethod',
        method: 'host',
        castRulesToReadonly: true,
        now: later,
      })
      .then([
        { type: 'ShareMigrationMethodSelected', data: { method: 'host', chosenAt: later } },
        castReadOnly,
      ]);
    const share = activeShareAfter(cast);
    expect(castsRulesToReadonly(share, source(share))).toBe(true);
    // Queued again, its level unchanged: the node applies it read-only.
    expect(ruleOn(share, 'i1')).toBe('queued_to_apply');
    expect(share.accessRules[0]?.accessLevel).toBe('rw');
  });

  it('a driver that keeps the share writable leaves the rules as they are', () => {
    const chosen = shareDecider.decide(
      {
        type: 'ChooseShareMigrationMethod',
        method: 'driver',
        castRulesToReadonly: false,
        now: later,
      },
      activeShareAfter(accepted),
    );
    expect(chosen.map((e) => e.type)).toEqual(['ShareMigrationMethodSelected']);
    const share = activeShareAfter([...accepted, ...chosen]);
    expect(castsRulesToReadonly(share, source(share))).toBe(false);
    expect(ruleOn(share, 'i1')).toBe('active');
    spec
      .given([...accepted, ...chosen])
      .when(claimStart)
      .then([operationStarted('i2', DEST_HOST, 'migration_start', 'c-mig', later)]);
  });

  it('the copy waits until the source node has applied the rules read-only', () => {
    expect(step(cast)).toBe('update');
    spec.given(cast).when(claimStart).thenNothing();
    expect(step([...cast, castApplied[0]!])).toBe('none');
    spec
      .given([...cast, castApplied[0]!])
      .when(claimStart)
      .thenNothing();
    expect(step([...cast, ...castApplied])).toBe('start');
    spec
      .given([...cast, ...castApplied])
      .when(claimStart)
      .then([operationStarted('i2', DEST_HOST, 'migration_start', 'c-mig', later)]);
  });

  it('a cast the back end refused fails the migration', () => {
    const refused: ShareEvent = {
      type: 'ShareAccessUpdateFailed',
      data: { instanceId: 'i1', commandId: 'c-cast', message: 'boom', failedAt: later },
    };
    expect(step([...cast, castApplied[0]!, refused])).toBe('fail');
    spec
      .given([...cast, castApplied[0]!, refused])
      .when(claimStart)
      .thenNothing();
  });

  it.each<[string, ShareEvent[]]>([
    [
      'a cancel',
      [
        {
          type: 'ShareMigrationCancelRequested',
          data: { destinationInstanceId: 'i2', requestedAt: later },
        },
        {
          type: 'ShareInstanceDeleted',
          data: { instanceId: 'i2', commandId: 'c-del', deletedAt: later },
        },
        { type: 'ShareMigrationCancelled', data: { cancelledAt: later } },
      ],
    ],
    ['a failure', [migrationFailed]],
  ])('%s gives the source rules their own level back', (_, ending) => {
    const copying = [
      ...cast,
      ...castApplied,
      operationStarted('i2', DEST_HOST, 'migration_start', 'c-mig', later),
      {
        type: 'ShareMigrationCopyStarted',
        data: { commandId: 'c-mig', progress: 0, copyStartedAt: later },
      },
    ] as ShareEvent[];
    const share = activeShareAfter([...copying, ...ending]);
    expect(castsRulesToReadonly(share, source(share))).toBe(false);
    expect(ruleOn(share, 'i1')).toBe('queued_to_apply');
    expect(step([...copying, ...ending])).toBe('update');
    expect(source(share).status).toBe('available');
  });
});
