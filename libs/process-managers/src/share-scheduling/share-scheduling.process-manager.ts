import type { CommandHandler } from '#hawser/application';
import {
  affinityHintsOf,
  derivedId,
  preferredInstance,
  SHARE_STREAM_PREFIX,
  shareDecider,
  type ShareCommand,
  isActiveShare,
} from '#hawser/domain';
import type { EventStore, RecordedEvent } from '#hawser/eventstore';
import type { ProcessManager } from '../runtime/process-manager.js';
import { reactionContext } from '../runtime/reaction-context.js';
import { AffinityHints, shareLoaderOf } from '../share-affinity/affinity-hints.js';
import type { Placement, PlacementRequest } from './placement.port.js';
import { shareEvents } from '../../../../eventstore/decoders.js';

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
export const shareSchedulingProcessManager = (
  commands: CommandHandler,
  placement: Placement,
  events: Pick<EventStore, 'readStream'>,
  clock: () => string = () => new Date().toISOString(),
  affinity: AffinityHints = new AffinityHints(shareLoaderOf(commands)),
): ProcessManager => {
  /** The request as the user made it: the first event of the share's stream. */
  const requestOf = async (streamId: string): Promise<PlacementRequest | undefined> => {
    for (const recorded of await events.readStream(streamId)) {
      const event = shareEvents.decode(recorded);
      if (event.type === 'ShareRequested') return event.data;
    }
    return undefined;
  };

  const contextOf = (event: RecordedEvent, purpose: string) =>
    reactionContext(event, purpose, 'scheduler');

  const checkExtend = async (event: RecordedEvent) => {
    const { state } = await commands.load(shareDecider, event.streamId);
    if (!isActiveShare(state)) return;
    const pending = state.pendingResize;
    const instance = preferredInstance(state.instances);
    if (!pending?.awaitsCapacityCheck || !instance || !state.shareType) return;
    const decision = placement.checkExtend({
      shareId: state.id,
      instanceId: instance.id,
      host: instance.host,
      size: state.size,
      shareProto: state.shareProto,
      shareType: state.shareType,
    });
    const command: ShareCommand = decision.passes
      ? {
          type: 'ConfirmShareExtendCapacity',
          host: instance.host,
          sizeDeltaGiB: pending.newSize - state.size,
          now: clock(),
        }
      : {
          type: 'RefuseShareExtend',
          message: decision.message,
          detail: decision.detail,
          now: clock(),
        };
    await commands.handle(shareDecider, event.streamId, command, contextOf(event, 'extend-check'), {
      retryOnConflict: 5,
    });
  };

  const schedule = async (
    event: RecordedEvent,
    request: PlacementRequest,
    attemptedHosts: readonly string[],
  ) => {
    if (request.snapshotSource?.placement === 'source-pool' && attemptedHosts.length === 0) return;
    const hints = request.schedulerHints ?? affinityHintsOf(request.metadata);
    const decision = placement.place(request, attemptedHosts, await affinity.resolve(hints));
    const ctx = contextOf(event, 'schedule');
    await commands.handle(
      shareDecider,
      event.streamId,
      decision.placed
        ? {
            type: 'ScheduleShareInstance',
            instanceId: request.instanceId,
            host: decision.host,
            availabilityZone: decision.availabilityZone,
            now: clock(),
          }
        : {
            type: 'FailShareInstanceScheduling',
            instanceId: request.instanceId,
            message: decision.message,
            detail: decision.detail,
            now: clock(),
          },
      ctx,
      { retryOnConflict: 5 },
    );
  };

  return {
    name: 'share-scheduling',
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
    async handle(recorded: RecordedEvent): Promise<void> {
      const event = shareEvents.decode(recorded);
      switch (event.type) {
        case 'ShareScheduled': {
          const data = event.data;
          placement.consume(data.host, data.instanceId, data.size, Date.parse(data.scheduledAt));
          return;
        }
        case 'ShareResizeRequested': {
          const data = event.data;
          if (data.awaitsCapacityCheck) await checkExtend(event);
          return;
        }
        case 'ShareExtendCapacityConfirmed': {
          const data = event.data;
          // Once per confirmation, keyed apart from the instance's own placement.
          const key = derivedId(event.id, 'extend');
          placement.consume(data.host, key, data.sizeDeltaGiB, Date.parse(data.confirmedAt));
          return;
        }
        case 'ShareRequested':
          return schedule(event, event.data, []);
        case 'SharePlacementRejected': {
          const data = event.data;
          const request = await requestOf(event.streamId);
          if (request?.instanceId !== data.instanceId) return;
          return schedule(event, request, data.attemptedHosts);
        }
      }
    },
  };
};
