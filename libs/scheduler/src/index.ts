// Pool state: capability reports in, placements debited, admin views out.
export * from './pool-state/pool-capabilities.js';
export * from './pool-state/pool-host.js';
export { FreeCapacity, PoolColumns } from './pool-state/pool-columns.js';
export * from './pool-state/pool-state-registry.js';
export * from './pool-state/pool-view.js';

// Requests and the pipeline.
export * from './request/scheduling-request.js';
export {
  rewriteExtraSpecs,
  useThinLogic,
  type SchedulingContext,
} from './request/scheduling-context.js';
export * from './pipeline/scheduler-config.js';
export * from './pipeline/scheduler-catalogue.js';
export * from './pipeline/scheduling-result.js';
export * from './pipeline/no-valid-host.js';
export * from './pipeline/filter-scheduler.js';
export * from './filters/affinity-check.js';

// Building blocks, for custom filters and weighers.
export type { PreparedFilter, SchedulerFilter } from './filters/scheduler-filter.js';
export type { PreparedWeigher, SchedulerWeigher } from './weighers/scheduler-weigher.js';
export * from './extra-specs/capability-requirements.js';
export {
  matchCapability,
  parseRequirement,
  type ParsedRequirement,
} from './extra-specs/extra-spec-match.js';

// Filter and goodness function expressions.
export {
  compileExpression,
  type CompiledExpression,
  type ExpressionScope,
} from './expressions/expression-compiler.js';
export { ExpressionCache } from './expressions/expression-cache.js';
export { ExpressionError, type PyValue } from './expressions/python-values.js';
