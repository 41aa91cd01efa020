/**
 * OpenAPI 3.1 description of Hawser's own endpoints (`/hawser/v1/...`): the audit trail, the
 * projections and the parked events. Manila's v2 API is described by Manila's api-ref, not here.
 * `openapi.document.unit.spec.ts` keeps it equal to the routes the controllers declare.
 */

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object) => ({ 'application/json': { schema } });
const fault = (description: string) => ({ description, content: json(ref('Fault')) });

const NON_NEGATIVE = { type: 'integer', minimum: 0 } as const;
const NULLABLE_STRING = { type: ['string', 'null'] } as const;

const adminErrors = {
  '401': fault('No token, or a token the authenticator does not accept.'),
  '403': fault('The caller is not an admin.'),
};

const limit = {
  name: 'limit',
  in: 'query',
  required: false,
  description: 'Page size.',
  schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
} as const;

export const HAWSER_OPENAPI_DOCUMENT = {
  openapi: '3.1.0',
  info: {
    title: 'Hawser admin API',
    version: '1',
    summary: "Hawser's own endpoints beside Manila's v2 API: audit trail, read models, workflows.",
    description:
      'Every operation needs a token, an admin token but for /hawser/v1/permissions ' +
      '(`X-Auth-Token`; with HAWSER_AUTH=noauth, ' +
      '`user:project`). Errors use Manila\'s fault body: `{"<faultName>": {"code", "message"}}`. ' +
      'This document itself is served without a token.',
  },
  tags: [
    { name: 'audit', description: 'The event log: who did what, when, caused by what.' },
    { name: 'projections', description: 'Read models: progress and rebuilds.' },
    { name: 'workflows', description: 'Events a process manager parked after its retries.' },
    { name: 'console', description: 'What the web console needs to know of its caller.' },
    { name: 'meta', description: 'This document.' },
  ],
  security: [{ token: [] }],
  paths: {
    '/hawser/v1/openapi.json': {
      get: {
        operationId: 'getOpenApiDocument',
        tags: ['meta'],
        summary: 'This OpenAPI document.',
        security: [],
        responses: {
          '200': { description: 'The document.', content: json({ type: 'object' }) },
        },
      },
    },
    '/hawser/v1/events': {
      get: {
        operationId: 'listEvents',
        tags: ['audit'],
        summary: 'A page of the global log, oldest first.',
        parameters: [
          {
            name: 'after',
            in: 'query',
            required: false,
            description: "Log position to start after (the previous page's `next_after`).",
            schema: NON_NEGATIVE,
          },
          limit,
          {
            name: 'stream_prefix',
            in: 'query',
            required: false,
            description: 'Only streams whose id starts with this (`share-`, `sharetype-`, ...).',
            schema: { type: 'string' },
          },
          {
            name: 'event_type',
            in: 'query',
            required: false,
            description: 'Only these event types, comma-separated.',
            schema: { type: 'string' },
          },
        ],
        responses: {
          '200': {
            description: 'The page; `next_after` is null on the last one.',
            content: json({
              type: 'object',
              required: ['events', 'next_after'],
              additionalProperties: false,
              properties: {
                events: { type: 'array', items: ref('AuditEvent') },
                next_after: { type: ['integer', 'null'], minimum: 0 },
              },
            }),
          },
          '400': fault('`after` or `limit` is not a valid integer.'),
          ...adminErrors,
        },
      },
    },
    '/hawser/v1/streams/{streamId}': {
      get: {
        operationId: 'readStream',
        tags: ['audit'],
        summary: "One stream's events (an aggregate's history).",
        parameters: [
          {
            name: 'streamId',
            in: 'path',
            required: true,
            description: 'The stream id, e.g. `share-<uuid>`; an unknown stream has no events.',
            schema: { type: 'string' },
          },
          {
            name: 'from_revision',
            in: 'query',
            required: false,
            description: 'Inclusive; default the start (forwards) or the end (backwards).',
            schema: NON_NEGATIVE,
          },
          limit,
          {
            name: 'direction',
            in: 'query',
            required: false,
            schema: { type: 'string', enum: ['forwards', 'backwards'], default: 'forwards' },
          },
        ],
        responses: {
          '200': {
            description: 'The events.',
            content: json({
              type: 'object',
              required: ['stream_id', 'events'],
              additionalProperties: false,
              properties: {
                stream_id: { type: 'string' },
                events: { type: 'array', items: ref('AuditEvent') },
              },
            }),
          },
          '400': fault('A query parameter is not valid.'),
          ...adminErrors,
        },
      },
    },
    '/hawser/v1/projections': {
      get: {
        operationId: 'listProjections',
        tags: ['projections'],
        summary: 'Each read model: how far it has read the log, and whether it is rebuilding.',
        responses: {
          '200': {
            description: 'The projections.',
            content: json({
              type: 'object',
              required: ['projector', 'projections'],
              additionalProperties: false,
              properties: {
                projector: {
                  description:
                    'Whether this process projects (active) or stands by behind the lease holder.',
                  type: 'object',
                  required: ['role'],
                  additionalProperties: false,
                  properties: {
                    role: { type: 'string', enum: ['active', 'standby'] },
                    holder: {
                      type: 'object',
                      required: ['pid', 'hostname'],
                      additionalProperties: false,
                      properties: { pid: NON_NEGATIVE, hostname: { type: 'string' } },
                    },
                  },
                },
                projections: { type: 'array', items: ref('ProjectionStatus') },
              },
            }),
          },
          ...adminErrors,
        },
      },
    },
    '/hawser/v1/projections/{name}/rebuild': {
      post: {
        operationId: 'rebuildProjection',
        tags: ['projections'],
        summary:
          'Rebuilds a read model from position zero into fresh collections and swaps them in ' +
          'once caught up; answers when swapped. Reads keep being served meanwhile.',
        parameters: [
          {
            name: 'name',
            in: 'path',
            required: true,
            description: 'A name from the projections listing.',
            schema: { type: 'string' },
          },
        ],
        responses: {
          '200': {
            description: 'Rebuilt and swapped in.',
            content: json({
              type: 'object',
              required: ['projection'],
              additionalProperties: false,
              properties: {
                projection: {
                  allOf: [
                    ref('ProjectionStatus'),
                    {
                      type: 'object',
                      required: ['rebuilt_in_ms'],
                      properties: { rebuilt_in_ms: NON_NEGATIVE },
                    },
                  ],
                },
              },
            }),
          },
          '404': fault('No projection has this name.'),
          '409': fault(
            'The projection is already being rebuilt, or no process projects at the moment ' +
              '(a takeover of the projector lease in progress).',
          ),
          ...adminErrors,
        },
      },
    },
    '/hawser/v1/parked-events': {
      get: {
        operationId: 'listParkedEvents',
        tags: ['workflows'],
        summary: 'Events a process manager gave up on after its retries, by log position.',
        responses: {
          '200': {
            description: 'The parked events.',
            content: json({
              type: 'object',
              required: ['parked_events'],
              additionalProperties: false,
              properties: { parked_events: { type: 'array', items: ref('ParkedEvent') } },
            }),
          },
          ...adminErrors,
        },
      },
    },
    '/hawser/v1/permissions': {
      get: {
        operationId: 'getPermissions',
        tags: ['console'],
        summary:
          "Who the caller is, and for every rule of the policy in force whether the caller passes it on the caller's own project. Any reader of a project may ask (not only admins).",
        responses: {
          '200': {
            description: "The caller's identity and the verdict of every rule.",
            content: json({
              type: 'object',
              required: ['permissions'],
              additionalProperties: false,
              properties: {
                permissions: {
                  type: 'object',
                  required: ['user_id', 'project_id', 'roles', 'is_admin', 'rules'],
                  additionalProperties: false,
                  properties: {
                    user_id: { type: 'string' },
                    project_id: { type: 'string' },
                    roles: { type: 'array', items: { type: 'string' } },
                    is_admin: { type: 'boolean' },
                    rules: { type: 'object', additionalProperties: { type: 'boolean' } },
                  },
                },
              },
            }),
          },
          '401': fault('No token, or a token the authenticator does not accept.'),
        },
      },
    },
    '/hawser/v1/parked-events/{id}/retry': {
      post: {
        operationId: 'retryParkedEvent',
        tags: ['workflows'],
        summary: 'Handles a parked event once more.',
        parameters: [
          {
            name: 'id',
            in: 'path',
            required: true,
            description: '`<process manager>:<event id>`, from the parked events listing.',
            schema: { type: 'string' },
          },
        ],
        responses: {
          '200': {
            description:
              '`retried: true` when it went through (and is no longer parked); otherwise ' +
              '`retried: false` with the parked event as it now stands.',
            content: json({
              type: 'object',
              required: ['retried'],
              additionalProperties: false,
              properties: { retried: { type: 'boolean' }, parked_event: ref('ParkedEvent') },
            }),
          },
          '404': fault('No parked event has this id.'),
          '409': fault('Its process manager runs in another process; retry it there.'),
          ...adminErrors,
        },
      },
    },
  },
  components: {
    securitySchemes: {
      token: {
        type: 'apiKey',
        in: 'header',
        name: 'X-Auth-Token',
        description: 'A Keystone token, or `user:project[:roles]` with HAWSER_AUTH=noauth.',
      },
    },
    schemas: {
      Fault: {
        type: 'object',
        description:
          "Manila's fault body: one key, the fault name (`badRequest`, `itemNotFound`, ...).",
        minProperties: 1,
        maxProperties: 1,
        additionalProperties: {
          type: 'object',
          required: ['code', 'message'],
          properties: { code: { type: 'integer' }, message: { type: 'string' } },
        },
      },
      AuditEvent: {
        type: 'object',
        required: [
          'position',
          'stream_id',
          'revision',
          'id',
          'type',
          'schema_version',
          'recorded_at',
          'user_id',
          'project_id',
          'request_id',
          'command_id',
          'correlation_id',
          'causation_id',
          'data',
        ],
        additionalProperties: false,
        properties: {
          position: { ...NON_NEGATIVE, description: 'Position in the global log.' },
          stream_id: { type: 'string' },
          revision: { ...NON_NEGATIVE, description: 'Position within its stream, from 0.' },
          id: { type: 'string', format: 'uuid' },
          type: { type: 'string', description: 'Past-tense event name, e.g. ShareCreated.' },
          schema_version: { type: 'integer', minimum: 1 },
          recorded_at: { type: 'string', format: 'date-time' },
          user_id: NULLABLE_STRING,
          project_id: NULLABLE_STRING,
          request_id: NULLABLE_STRING,
          command_id: NULLABLE_STRING,
          correlation_id: NULLABLE_STRING,
          causation_id: NULLABLE_STRING,
          data: { description: "The event's data, upcast to its current schema version." },
        },
      },
      ProjectionStatus: {
        type: 'object',
        required: ['name', 'position', 'rebuilding'],
        properties: {
          name: { type: 'string' },
          position: {
            ...NON_NEGATIVE,
            description: 'How far the log has been read and committed.',
          },
          rebuilding: { type: 'boolean' },
          rebuild: {
            type: 'object',
            description:
              'While rebuilding: how far the new generation has read, against the head of the log.',
            required: ['position', 'head', 'percent'],
            additionalProperties: false,
            properties: {
              position: { ...NON_NEGATIVE, description: 'How far the rebuild has read.' },
              head: {
                ...NON_NEGATIVE,
                description: "The log's head as that position was reached.",
              },
              percent: { type: 'integer', minimum: 0, maximum: 100 },
            },
          },
          error: { type: 'string', description: 'The last failure, while batches keep failing.' },
        },
      },
      ParkedEvent: {
        type: 'object',
        required: [
          'id',
          'process_manager',
          'event_id',
          'event_type',
          'stream_id',
          'revision',
          'position',
          'error',
          'attempts',
          'parked_at',
        ],
        additionalProperties: false,
        properties: {
          id: { type: 'string' },
          process_manager: { type: 'string' },
          event_id: { type: 'string' },
          event_type: { type: 'string' },
          stream_id: { type: 'string' },
          revision: NON_NEGATIVE,
          position: NON_NEGATIVE,
          error: { type: 'string', description: 'The last failure.' },
          attempts: { type: 'integer', minimum: 1 },
          parked_at: { type: 'string', format: 'date-time' },
        },
      },
    },
  },
} as const;
