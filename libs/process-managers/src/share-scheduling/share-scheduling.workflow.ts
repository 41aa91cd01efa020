import {
  affinityHintsOf,
  derivedId,
  evolveShare,
  initialShareState,
  isActiveShare,
  preferredInstance,
  SHARE_STREAM_PREFIX,
  type SchedulerHints,
  type ShareCommand,
  type ShareEvent,
  type ShareState,
} from '#hawser/domain';
import type { Decoded } from '#hawser/eventstore';
import type { Workflow } from '../runtime/workflow.js';
import type {
  ExtendCheckDecision,
  ExtendCheckRequest,
  PlacementDecision,
  PlacementRequest,
} from './placement.port.js';
import { poolDebit, type ConsumePoolCapacity } from './pool-debit.js';

/** What the scheduling workflow asks of the scheduler. */
export type ShareSchedulingOutput =
  | ConsumePoolCapacity
  /** Place the instance, avoiding `attemptedHosts`, honouring `hints` once resolved. */
  | {
      readonly type: 'PlaceShareInstance';
      readonly request: PlacementRequest;
      readonly attemptedHosts: readonly string[];
      readonly hints: SchedulerHints | null;
    }
  /** Check a non-forced extend on the share's own pool. */
  | {
      readonly type: 'CheckExtendCapacity';
      readonly check: ExtendCheckRequest;
      readonly sizeDeltaGiB: number;
    };

export interface ShareSchedulingState {
  /** The request as the user made it: the first ShareRequested of the stream. */
  readonly request: PlacementRequest | undefined;
  readonly share: ShareState;
}

type Input = Decoded<ShareEvent>;

/**
 * Places every requested share: ShareRequested -> the scheduler -> ShareScheduled, or
 * ShareSchedulingFailed with Manila's "No valid host" message. Every ShareScheduled, whoever
 * recorded it, debits the chosen pool, so schedulers sharing a log do not double-book it. A
 * placement the pool's node refused (SharePlacementRejected) is placed again without the
 * pools that refused it. A share from a snapshot that is not to be scheduled was placed on its
 * source's pool when it was requested. Hints (the request's, else those an admin put in the
 * share's metadata, reference 7.4) are resolved from the log before each placement.
 * A non-forced extend is checked on the share's own pool (reference 6.9): confirmed, and the
 * delta debited from the pool by every scheduler once the confirmation is recorded, or refused
 * (the share is available again with its old size).
 */
export const shareSchedulingWorkflow: Workflow<
  Input,
  ShareSchedulingState,
  ShareSchedulingOutput,
  ShareEvent
> = {
  name: 'share-scheduling',
  streamsApart: true,
  filter: {
    streamPrefixes: [SHARE_STREAM_PREFIX],
    eventTypes: [
      'ShareRequested',
      'ShareScheduled',
      'SharePlacementRejected',
      'ShareResizeRequested',
      'ShareExtendCapacityConfirmed',
    ],
  },
  initialState: () => ({ request: undefined, share: initialShareState() }),
  evolve: (state, event) => ({
    request: state.request ?? (event.type === 'ShareRequested' ? event.data : undefined),
    share: evolveShare(state.share, event),
  }),
  readsHistory: (event) =>
    event.type === 'SharePlacementRejected' ||
    (event.type === 'ShareResizeRequested' && event.data.awaitsCapacityCheck === true),
  decide: (event, state) => {
    switch (event.type) {
      case 'ShareScheduled': {
        const { host, instanceId, size, scheduledAt } = event.data;
        return [poolDebit(host, instanceId, size, scheduledAt)];
      }
      case 'ShareExtendCapacityConfirmed': {
        const { host, sizeDeltaGiB, confirmedAt } = event.data;
        // Once per confirmation, keyed apart from the instance's own placement.
        return [poolDebit(host, derivedId(event.id, 'extend'), sizeDeltaGiB, confirmedAt)];
      }
      case 'ShareRequested':
        return placement(event.data, []);
      case 'SharePlacementRejected':
        if (state.request?.instanceId !== event.data.instanceId) return [];
        return placement(state.request, event.data.attemptedHosts);
      case 'ShareResizeRequested':
        return event.data.awaitsCapacityCheck ? extendCheck(state.share) : [];
      default:
        return [];
    }
  },
};

const placement = (
  request: PlacementRequest,
  attemptedHosts: readonly string[],
): ShareSchedulingOutput[] => {
  if (request.snapshotSource?.placement === 'source-pool' && attemptedHosts.length === 0) {
    return [];
  }
  const hints = request.schedulerHints ?? affinityHintsOf(request.metadata);
  return [{ type: 'PlaceShareInstance', request, attemptedHosts, hints }];
};

const extendCheck = (share: ShareState): ShareSchedulingOutput[] => {
  if (!isActiveShare(share)) return [];
  const pending = share.pendingResize;
  const instance = preferredInstance(share.instances);
  if (!pending?.awaitsCapacityCheck || !instance || !share.shareType) return [];
  const check: ExtendCheckRequest = {
    shareId: share.id,
    instanceId: instance.id,
    host: instance.host,
    size: share.size,
    shareProto: share.shareProto,
    shareType: share.shareType,
  };
  return [{ type: 'CheckExtendCapacity', check, sizeDeltaGiB: pending.newSize - share.size }];
};

/** The share command that records the scheduler's placement of `instanceId`. */
export const placementOutcome = (
  instanceId: string,
  decision: PlacementDecision,
  now: string,
): ShareCommand =>
  decision.placed
    ? {
        type: 'ScheduleShareInstance',
        instanceId,
        host: decision.host,
        availabilityZone: decision.availabilityZone,
        now,
      }
    : {
        type: 'FailShareInstanceScheduling',
        instanceId,
        message: decision.message,
        detail: decision.detail,
        now,
      };

/** The share command that records the scheduler's answer to an extend check. */
export const extendCheckOutcome = (
  output: Extract<ShareSchedulingOutput, { type: 'CheckExtendCapacity' }>,
  decision: ExtendCheckDecision,
  now: string,
): ShareCommand =>
  decision.passes
    ? {
        type: 'ConfirmShareExtendCapacity',
        host: output.check.host,
        sizeDeltaGiB: output.sizeDeltaGiB,
        now,
      }
    : { type: 'RefuseShareExtend', message: decision.message, detail: decision.detail, now };
