import { ADMIN, ADMIN_OR_PROJECT_READER } from './manila/personas.js';
import type { RuleDefinition } from './rule-definition.js';

/**
 * Hawser's own endpoints, in Manila's rule style with a `hawser:` prefix. The audit trail,
 * parked events and projections expose every project's data and can replay or rebuild state,
 * so they are the administrator's; a share's own history and change feed follow the share's
 * readers. They have no deprecated default: legacy mode leaves them as they are.
 */
export const HAWSER_RULES: readonly RuleDefinition[] = [
  {
    // Manila checks no rule here (any authenticated user); Hawser's routes each name one.
    name: 'hawser:extensions:index',
    check: ADMIN_OR_PROJECT_READER,
    description: "List the API extensions served (Manila's GET /v2/extensions; none).",
    operations: [
      { method: 'GET', path: '/v2/extensions' },
      { method: 'GET', path: '/v2/extensions/{alias}' },
    ],
  },
  {
    name: 'hawser:events:get_all',
    check: ADMIN,
    description: 'Page through the global event log (the audit trail).',
    operations: [{ method: 'GET', path: '/hawser/v1/events' }],
  },
  {
    name: 'hawser:streams:get',
    check: ADMIN,
    description: "Read one stream's events (a share, a share type, a quota, ...).",
    operations: [{ method: 'GET', path: '/hawser/v1/streams/{stream_id}' }],
  },
  {
    name: 'hawser:parked_events:get_all',
    check: ADMIN,
    description: 'List the events a workflow parked after exhausting its retries.',
    operations: [{ method: 'GET', path: '/hawser/v1/parked-events' }],
  },
  {
    name: 'hawser:parked_events:retry',
    check: ADMIN,
    description: 'Hand a parked event back to its workflow.',
    operations: [{ method: 'POST', path: '/hawser/v1/parked-events/{parked_event_id}/retry' }],
  },
  {
    name: 'hawser:projections:get_all',
    check: ADMIN,
    description: "List the read-model projections with each one's checkpoint and lag.",
    operations: [{ method: 'GET', path: '/hawser/v1/projections' }],
  },
  {
    name: 'hawser:projections:rebuild',
    check: ADMIN,
    description: 'Rebuild a read-model projection from the event log.',
    operations: [{ method: 'POST', path: '/hawser/v1/projections/{projection_name}/rebuild' }],
  },
  {
    name: 'hawser:metrics:get',
    check: ADMIN,
    description: "Scrape the process's metrics in Prometheus text.",
    operations: [{ method: 'GET', path: '/metrics' }],
  },
  {
    name: 'hawser:share_events:get',
    check: ADMIN_OR_PROJECT_READER,
    description: "Read a share's own event history (GraphQL Share.events).",
    operations: [{ method: 'POST', path: '/graphql (Share.events)' }],
  },
  {
    name: 'hawser:share_changes:subscribe',
    check: ADMIN_OR_PROJECT_READER,
    description:
      "Follow the changes of a share, or of a project's shares (GraphQL subscriptions " +
      'shareChanged and projectSharesChanged).',
    operations: [
      { method: 'GET', path: '/graphql (WebSocket subscription shareChanged)' },
      { method: 'GET', path: '/graphql (WebSocket subscription projectSharesChanged)' },
    ],
  },
  {
    name: 'hawser:permissions:get',
    check: ADMIN_OR_PROJECT_READER,
    description:
      'See which rules the caller passes on their own project (the web console offers only ' +
      'the controls whose rules pass).',
    operations: [{ method: 'GET', path: '/hawser/v1/permissions' }],
  },
  {
    name: 'hawser:share:force_migration',
    check: ADMIN,
    description:
      'Migrate a share to a destination that breaks its scheduler hints (`force` in migration_start).',
    operations: [{ method: 'POST', path: '/shares/{share_id}/action' }],
  },
];
