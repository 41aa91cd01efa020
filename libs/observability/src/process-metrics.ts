import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The instruments every part of a Hawser process records into (HTTP, the event store, the
 * workflows, the scheduler, the drivers), in one registry per process as prom-client intends.
 * What depends on one running service (lag, shares by status) is collected per app at scrape.
 */
export const processMetrics = new Registry();
collectDefaultMetrics({ register: processMetrics });

/** Buckets from 1 ms to 30 s: an HTTP request, an append, a driver call. */
const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export const httpRequestDuration = new Histogram({
  name: 'hawser_http_request_duration_seconds',
  help: 'HTTP requests by method, route template and status, with their duration',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [processMetrics],
});

export const eventsAppended = new Counter({
  name: 'hawser_events_appended_total',
  help: 'Events appended to the log, by stream category',
  labelNames: ['category'] as const,
  registers: [processMetrics],
});

export const eventAppendDuration = new Histogram({
  name: 'hawser_event_append_duration_seconds',
  help: 'Appends to the event store, by outcome',
  labelNames: ['outcome'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [processMetrics],
});

export const workflowStepDuration = new Histogram({
  name: 'hawser_workflow_step_duration_seconds',
  help: 'Events handled by process managers, by process manager and outcome',
  labelNames: ['process_manager', 'outcome'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [processMetrics],
});

export const schedulerDecisionDuration = new Histogram({
  name: 'hawser_scheduler_decision_duration_seconds',
  help: 'Placement decisions of the scheduler, by what was placed and outcome',
  labelNames: ['kind', 'outcome'] as const,
  buckets: [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1],
  registers: [processMetrics],
});

export const driverOperationDuration = new Histogram({
  name: 'hawser_driver_operation_duration_seconds',
  help: 'Driver calls, by back end, operation and outcome',
  labelNames: ['backend', 'operation', 'outcome'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [processMetrics],
});

export const poolCapacity = new Gauge({
  name: 'hawser_pool_capacity_gigabytes',
  help: 'Pool capacity as its back end last reported it (total, free, allocated)',
  labelNames: ['backend', 'pool', 'kind'] as const,
  registers: [processMetrics],
});

export const copiedBytes = new Counter({
  name: 'hawser_copied_bytes_total',
  help: 'Bytes written by share copies (shares from snapshots, replicas)',
  registers: [processMetrics],
});

/** Seconds since `startedAt` (a `performance.now()` reading). */
export const secondsSince = (startedAt: number): number => (performance.now() - startedAt) / 1000;
