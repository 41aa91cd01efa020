import { goodnessRating } from '../expressions/function-outcome.js';
import type { CompiledExpression } from '../expressions/expression-compiler.js';
import type { PoolColumns } from '../pool-state/pool-columns.js';
import { PoolExpressionScope } from '../pool-state/pool-expression-scope.js';
import type { SchedulerWeigher } from './scheduler-weigher.js';

/**
 * GoodnessWeigher (reference 6.6): the pool's goodness_function result, 0..100 (true 100,
 * false 0, out of range or an error 0, no function 0). Multiplier fixed at 1.0 as in Manila 15.1.
 */
export const goodnessWeigher: SchedulerWeigher = {
  name: 'GoodnessWeigher',
  multiplier: () => 1,
  prepare({ columns, registry, request, extraSpecs }) {
    if (!registry.hasGoodnessFunctions) return null;
    let scope: PoolExpressionScope | undefined;
    return {
      weigh(candidates, count, raw) {
        scope ??= new PoolExpressionScope(columns, request.shareProperties, extraSpecs);
        rate(candidates, count, raw, columns, scope);
      },
    };
  },
};

/** A module function, not a closure per request, so its optimized code outlives the requests. */
const rate = (
  candidates: Int32Array,
  count: number,
  raw: Float64Array,
  { goodnessConstant, goodnessFunction }: PoolColumns,
  scope: PoolExpressionScope,
): void => {
  for (let i = 0; i < count; i++) {
    const pool = candidates[i] as number;
    const constant = goodnessConstant[pool] as number;
    if (!Number.isNaN(constant)) {
      raw[i] = constant;
      continue;
    }
    scope.pool = pool;
    try {
      raw[i] = goodnessRating((goodnessFunction[pool] as CompiledExpression).evaluate(scope));
    } catch {
      raw[i] = 0;
    }
  }
};
