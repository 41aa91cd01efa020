import type { ShareEventDetail } from '../api/share-detail';
import { when } from './common';

/** A share's history, newest first: what happened, when, who asked, caused by what. */
export const Timeline = ({ events }: { events: readonly ShareEventDetail[] }) => {
  const byId = new Map(events.map((event) => [event.id, event]));
  const newestFirst = [...events].sort((a, b) => b.revision - a.revision);
  return (
    <ol class="timeline" aria-label="Share history">
      {newestFirst.map((event) => {
        const cause = event.causationId ? byId.get(event.causationId) : undefined;
        return (
          <li key={event.id}>
            <strong>{event.type}</strong>
            <time dateTime={event.recordedAt}>{when(event.recordedAt)}</time>
            <span class="muted">
              {event.userId ? `by ${event.userId}` : 'by Hawser'}
              {event.requestId && ` · request ${event.requestId}`}
              {cause
                ? ` · caused by ${cause.type} (#${cause.revision})`
                : event.causationId && ` · caused by ${event.causationId}`}
            </span>
          </li>
        );
      })}
    </ol>
  );
};
