import type { SchedulingContext } from '../request/scheduling-context.js';
import type { SchedulerConfig } from '../pipeline/scheduler-config.js';

/** A weigher prepared for one request. */
export interface PreparedWeigher {
  /** Writes the raw weight of `candidates[i]` into `raw[i]` for i < count. */
  weigh(candidates: Int32Array, count: number, raw: Float64Array): void;
}

/** One of Manila's weighers, as a pure module. */
export interface SchedulerWeigher {
  /** Manila's class name, as in scheduler_default_weighers. */
  readonly name: string;
  multiplier(config: SchedulerConfig): number;
  /** Null when every raw weight is the same (it then adds nothing after normalisation). */
  prepare(context: SchedulingContext, config: SchedulerConfig): PreparedWeigher | null;
}
