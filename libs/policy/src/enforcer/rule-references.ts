import { referencedRules, type CheckNode } from '../check-language/check-tree.js';
import { PolicyFileError } from './policy-file-error.js';

/**
 * Refuses a `rule:` that names no rule and a chain of `rule:` references that comes back to
 * where it started (oslo.policy would fail closed, or recurse until it gives up, at request
 * time). `sourceOf` tells which file a rule's check came from, for the error.
 */
export const verifyRuleReferences = (
  checks: ReadonlyMap<string, CheckNode>,
  sourceOf: (rule: string) => string | undefined,
): void => {
  for (const [rule, check] of checks) {
    for (const reference of referencedRules(check)) {
      if (!checks.has(reference)) {
        throw new PolicyFileError(
          sourceOf(rule),
          rule,
          `rule:${reference} refers to a rule that is not defined`,
        );
      }
    }
  }
  const finished = new Set<string>();
  for (const rule of checks.keys()) {
    const loop = findLoop(rule, checks, finished, []);
    if (loop) {
      const culprit = loop.find((name) => sourceOf(name) !== undefined) ?? loop[0]!;
      throw new PolicyFileError(
        sourceOf(culprit),
        culprit,
        `rule: references loop (${[...loop, loop[0]].map((name) => `rule:${name}`).join(' -> ')})`,
      );
    }
  }
};

/** Depth-first walk; returns the rules of the first loop found from `rule`, in order. */
const findLoop = (
  rule: string,
  checks: ReadonlyMap<string, CheckNode>,
  finished: Set<string>,
  path: string[],
): string[] | undefined => {
  if (finished.has(rule)) return undefined;
  const start = path.indexOf(rule);
  if (start >= 0) return path.slice(start);
  path.push(rule);
  for (const reference of new Set(referencedRules(checks.get(rule)!))) {
    const loop = findLoop(reference, checks, finished, path);
    if (loop) return loop;
  }
  path.pop();
  finished.add(rule);
  return undefined;
};
