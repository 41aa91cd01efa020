import type { CompiledExpression } from '../expressions/expression-compiler.js';
import { filterPasses } from '../expressions/function-outcome.js';
import { NOT_CONSTANT, type PoolColumns } from '../pool-state/pool-columns.js';
import { PoolExpressionScope } from '../pool-state/pool-expression-scope.js';
import type { PreparedFilter, SchedulerFilter } from './scheduler-filter.js';

/**
 * DriverFilter: a pool with a filter_function passes iff the function's result is truthy; an
 * evaluation error fails it; no function passes. Functions reading only `capabilities.*` were
 * evaluated when the report arrived.
 */
export const driverFilter: SchedulerFilter = {
  name: 'DriverFilter',
  prepare({ registry, columns, request, extraSpecs }) {
    let scope: PoolExpressionScope | undefined;
    const prepared: PreparedFilter = {
      keep(candidates, count) {
        scope ??= new PoolExpressionScope(columns, request.shareProperties, extraSpecs);
        return keepPassing(candidates, count, columns, scope);
      },
      // Outcomes computed from capabilities alone are the same for every request.
      staticKey: registry.hasPerRequestFilterFunctions ? undefined : '',
    };
    return prepared;
  },
};

/** A module function, not a closure per request, so its optimized code outlives the requests. */
const keepPassing = (
  candidates: Int32Array,
  count: number,
  { filterConstant, filterFunction }: PoolColumns,
  scope: PoolExpressionScope,
): number => {
  let kept = 0;
  for (let i = 0; i < count; i++) {
    const pool = candidates[i] as number;
    const constant = filterConstant[pool];
    if (constant === 1) candidates[kept++] = pool;
    else if (constant === NOT_CONSTANT) {
      scope.pool = pool;
      if (passesFunction(filterFunction[pool] as CompiledExpression, scope)) {
        candidates[kept++] = pool;
      }
    }
  }
  return kept;
};

/** Any error raised by the function fails the pool, as Manila catches every exception here. */
const passesFunction = (expression: CompiledExpression, scope: PoolExpressionScope): boolean => {
  try {
    return filterPasses(expression.evaluate(scope));
  } catch {
    return false;
  }
};
