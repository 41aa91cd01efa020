import type { CommandContext, CommandHandler } from '#hawser/application';
import {
  AFFINITY_HINTS,
  AFFINITY_KEYS,
  DomainError,
  linkedShareIds,
  SHARE_STREAM_PREFIX,
  shareDecider,
  shareIdOfStream,
  shareStream,
  type AffinityCommand,
} from '#hawser/domain';
import type { RecordedEvent } from '#hawser/eventstore';
import type { ProcessManager } from '../runtime/process-manager.js';
import { reactionContext } from '../runtime/reaction-context.js';
import { shareEvents } from '../../../../eventstore/decoders.js';

/**
 * The symmetric side of scheduler hints (reference 7.2, 7.5), each change on the stream of the
 * share it concerns:
 * - ShareRequested with hints: every share named that the new share's metadata lists (the API
 *   lists only the shares the requester may write: its project's, or any for an admin) gets
 *   the new share's id under the same key; a named share that is gone by now is taken off the
 *   new share's list instead. Another project's share named by a member guides the placement
 *   only and is not written to.
 * - ShareDeleted: every share the deleted one lists (its own hints and the links others made to
 *   it) loses the deleted share's id.
 * Command ids derive from the event and the share concerned, and links are idempotent by state,
 * so a replay repeats nothing.
 */
export const affinityLinksProcessManager = (
  commands: CommandHandler,
  clock: () => string = () => new Date().toISOString(),
): ProcessManager => ({
  name: 'affinity-links',
  filter: { streamPrefixes: [SHARE_STREAM_PREFIX], eventTypes: ['ShareRequested', 'ShareDeleted'] },
  async handle(stored: RecordedEvent): Promise<void> {
    const event = shareEvents.decode(stored);
    const shareId = shareIdOfStream(event.streamId);
    const ctx = (purpose: string) => reactionContext(event, purpose, 'affinity');
    const send = (target: string, command: AffinityCommand, purpose: string) =>
      applied(commands, target, command, ctx(purpose));

    if (event.type === 'ShareRequested') {
      const { schedulerHints: hints, metadata } = event.data;
      for (const hint of AFFINITY_HINTS) {
        const recorded = new Set(linkedShareIds(metadata[AFFINITY_KEYS[hint]]));
        for (const other of new Set(hints?.[hint] ?? [])) {
          if (!recorded.has(other)) continue;
          const linked = await send(
            other,
            { type: 'LinkAffinity', hint, shareId, now: clock() },
            `link:${hint}:${other}`,
          );
          if (!linked) {
            await send(
              shareId,
              { type: 'UnlinkAffinity', hint, shareId: other, now: clock() },
              `unlink:${hint}:${other}`,
            );
          }
        }
      }
      return;
    }
    const { state } = await commands.load(shareDecider, event.streamId);
    if (state.kind === 'absent') return;
    for (const hint of AFFINITY_HINTS) {
      // Its own hints too, in case an admin edited the key away.
      const listed = linkedShareIds(state.metadata[AFFINITY_KEYS[hint]]);
      for (const other of new Set([...listed, ...(state.schedulerHints?.[hint] ?? [])])) {
        await send(
          other,
          { type: 'UnlinkAffinity', hint, shareId, now: clock() },
          `unlink:${hint}:${other}`,
        );
      }
    }
  },
});

/** Runs the command on a share; false when that share does not exist (any more). */
const applied = async (
  commands: CommandHandler,
  shareId: string,
  command: AffinityCommand,
  ctx: CommandContext,
): Promise<boolean> => {
  try {
    await commands.handle(shareDecider, shareStream(shareId), command, ctx, {
      retryOnConflict: 50,
    });
    return true;
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'not_found') return false;
    throw error;
  }
};
