import { compareOrder, equals, truthy, type PyValue } from '../expressions/python-values.js';
import type { PoolColumns } from '../pool-state/pool-columns.js';
import { PoolExpressionScope } from '../pool-state/pool-expression-scope.js';
import { keepNothing, keepWhere, type SchedulerFilter } from './scheduler-filter.js';

type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
type Cooked = unknown;

const comparing =
  (test: (first: PyValue, other: PyValue) => boolean) =>
  (args: Cooked[]): boolean => {
    if (args.length < 2) return false;
    const [first, ...others] = args as PyValue[];
    return others.every((other) => test(first as PyValue, other));
  };

/** JsonFilter's commands (scheduler/filters/json.py). */
const COMMANDS: Readonly<Record<string, (args: Cooked[]) => Cooked>> = {
  '=': comparing(equals),
  '<': comparing((a, b) => compareOrder(a, b) < 0),
  '>': comparing((a, b) => compareOrder(a, b) > 0),
  '<=': comparing((a, b) => compareOrder(a, b) <= 0),
  '>=': comparing((a, b) => compareOrder(a, b) >= 0),
  in: (args) =>
    args.length >= 2 &&
    (args.slice(1) as PyValue[]).some((other) => equals(args[0] as PyValue, other)),
  not: (args) => args.map((arg) => !isTruthy(arg)),
  or: (args) => args.some(isTruthy),
  and: (args) => args.every(isTruthy),
};

const isTruthy = (value: Cooked): boolean => {
  if (value === null || value === undefined) return false;
  if (typeof value === 'object' && !Array.isArray(value)) return Object.keys(value).length > 0;
  return truthy(value as PyValue);
};

/** `$free_capacity_gb`, `$capabilities.foo.bar`: host-state attributes; missing ones are dropped. */
const resolveVariable = (
  scope: PoolExpressionScope,
  columns: PoolColumns,
  pool: number,
  text: string,
): Cooked => {
  const [attribute, ...path] = text.slice(1).split('.');
  let value: unknown;
  if (attribute === 'capabilities') value = columns.capabilities[pool];
  else {
    try {
      value = scope.variable('stats', attribute as string);
    } catch {
      return null;
    }
  }
  for (const key of path) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
    value = (value as Record<string, unknown>)[key];
    if (value === undefined) return null;
  }
  return value ?? null;
};

const evaluate = (
  query: JsonValue[],
  scope: PoolExpressionScope,
  columns: PoolColumns,
  pool: number,
): Cooked => {
  if (query.length === 0) return true;
  const command = COMMANDS[String(query[0])];
  if (!command) throw new Error(`Unknown JsonFilter command ${String(query[0])}`);
  const args: Cooked[] = [];
  for (const raw of query.slice(1)) {
    let arg: Cooked = raw;
    if (Array.isArray(raw)) arg = evaluate(raw, scope, columns, pool);
    else if (typeof raw === 'string') {
      if (raw === '') arg = null;
      else if (raw.startsWith('$')) arg = resolveVariable(scope, columns, pool, raw);
    }
    if (arg !== null && arg !== undefined) args.push(arg);
  }
  return command(args);
};

/**
 * JsonFilter (not a default filter): the `query` hint is a JSON list such as
 * `["and", [">=", "$free_capacity_gb", 500], ["=", "$capabilities.vendor_name", "Acme"]]`.
 * A pool whose query raises (mixed-type ordering, unknown command) fails.
 */
export const jsonFilter: SchedulerFilter = {
  name: 'JsonFilter',
  prepare({ request, columns }) {
    if (!request.jsonQuery) return null;
    let query: JsonValue;
    try {
      query = JSON.parse(request.jsonQuery) as JsonValue;
    } catch {
      return keepNothing('The query hint is not valid JSON');
    }
    if (!Array.isArray(query)) return keepNothing('The query hint is not a JSON list');
    const list = query;
    const scope = new PoolExpressionScope(columns, null, null);
    return keepWhere((pool) => {
      scope.pool = pool;
      try {
        const result = evaluate(list, scope, columns, pool);
        return Array.isArray(result) ? result.some(isTruthy) : isTruthy(result);
      } catch {
        return false;
      }
    });
  },
};
