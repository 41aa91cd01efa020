import { randomUUID } from 'node:crypto';
import { quotaStream, shareStream, type QuotaEvent, type ShareEvent } from '#hawser/domain';
import type { Decoded } from '#hawser/eventstore';
import type { Workflow } from '../runtime/workflow.js';

/**
 * Given/when/then for a workflow: `given` the history its state folds, `when` an input,
 * `then` the outputs `decide` answers with (`[]`: nothing to do).
 */
export const workflowSpec = <Input, State, Output, History>(
  workflow: Workflow<Input, State, Output, History>,
) => ({
  given: (...history: History[]) => ({
    when: (input: Input) => ({
      then: (expected: readonly Output[]) => {
        const state = history.reduce(workflow.evolve, workflow.initialState());
        expect(workflow.decide(input, state)).toEqual(expected);
      },
    }),
  }),
});

/** Where and when an event was recorded, with a fresh id. */
const recordedAt = (streamId: string, revision: number, metadata: { commandId?: string }) => ({
  id: randomUUID(),
  streamId,
  revision,
  position: revision + 1,
  metadata: { ...metadata, schemaVersion: 1, recordedAt: '2026-11-23T10:00:00.000Z' },
});

/** `event` as recorded at `revision` of share `shareId`'s stream. */
export const recordedShareEvent = (
  shareId: string,
  revision: number,
  event: ShareEvent,
  metadata: { commandId?: string } = {},
): Decoded<ShareEvent> => ({ ...event, ...recordedAt(shareStream(shareId), revision, metadata) });

/** `event` as recorded at `revision` of project `projectId`'s quota stream. */
export const recordedQuotaEvent = (
  projectId: string,
  revision: number,
  event: QuotaEvent,
): Decoded<QuotaEvent> => ({ ...event, ...recordedAt(quotaStream(projectId), revision, {}) });
