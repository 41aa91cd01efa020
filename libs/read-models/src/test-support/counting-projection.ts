import { randomUUID } from 'node:crypto';
import type { NewEvent, RecordedEvent } from '#hawser/eventstore';
import type { Projection, ProjectionContext } from '../projection/projection.js';

export interface StreamCount {
  id: string;
  count: number;
  lastType: string;
}

/**
 * Counts events per `thing-` stream. Deliberately not idempotent (no revision check), so an
 * event applied twice shows up as a wrong count.
 */
export function countingProjection(
  name: string,
  collection: string,
): Projection & { handled: number } {
  return {
    name,
    collections: [collection],
    filter: { streamPrefixes: ['thing-'] },
    indexes: { [collection]: [['lastType', 'count']] },
    handled: 0,
    async handle(event: RecordedEvent, ctx: ProjectionContext) {
      this.handled += 1;
      const current = await ctx.get<StreamCount>(collection, event.streamId);
      ctx.put(collection, {
        id: event.streamId,
        count: (current?.count ?? 0) + 1,
        lastType: event.type,
      } satisfies StreamCount);
    },
  };
}

export const newEvents = (count: number, type = 'ThingHappened'): NewEvent[] =>
  Array.from({ length: count }, () => ({ id: randomUUID(), type, data: {} }));
