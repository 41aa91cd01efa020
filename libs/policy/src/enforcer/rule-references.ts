import {
  MAX_CHECK_NESTING,
  nestingOf,
  referencedRules,
  referencesWithNesting,
  type CheckNode,
} from '../check-language/check-tree.js';
import { PolicyFileError } from './policy-file-error.js';

/**
 * Refuses a `rule:` that names no rule, a chain of `rule:` references that comes back to where
 * it started (oslo.policy would fail closed, or recurse until it gives up, at request time), and
 * a check that, through the rules it names, nests deeper than MAX_CHECK_NESTING (checking it
 * would overflow the stack). `sourceOf` tells which file a rule's check came from, for the error.
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
  const refuse = (path: readonly string[], problem: string, shown = path): never => {
    const culprit = path.find((name) => sourceOf(name) !== undefined) ?? path[0]!;
    throw new PolicyFileError(sourceOf(culprit), culprit, `${problem} (${chain(shown)})`);
  };
  const nesting = new Map<string, number>();
  const deepestVia = new Map<string, string>();
  for (const rule of checks.keys()) {
    walkReferences(
      rule,
      checks,
      { nesting, deepestVia },
      {
        loop: (path) => refuse(path, 'rule: references loop', [...path, path[0]!]),
        tooDeep: (path) =>
          refuse(
            path,
            `the check nests deeper than ${MAX_CHECK_NESTING} levels of not, and, or and rule: references`,
          ),
      },
    );
  }
};

/** How deep each rule walked so far nests, and the rule it names that nests deepest. */
interface Measured {
  readonly nesting: Map<string, number>;
  readonly deepestVia: Map<string, string>;
}

interface Visit {
  readonly rule: string;
  readonly references: readonly [string, number][];
  next: number;
}

/**
 * Depth-first from `rule`, with a stack of its own (a chain of references may be as long as the
 * file): records in `nesting` how deep each rule's check nests with the rules it names, and
 * calls `loop` with the rules of a loop, `tooDeep` with the deepest chain from the first rule
 * that nests past the bound.
 */
const walkReferences = (
  rule: string,
  checks: ReadonlyMap<string, CheckNode>,
  { nesting, deepestVia }: Measured,
  on: {
    readonly loop: (path: readonly string[]) => void;
    readonly tooDeep: (path: readonly string[]) => void;
  },
): void => {
  if (nesting.has(rule)) return;
  const visit = (name: string): Visit => ({
    rule: name,
    references: referencesWithNesting(checks.get(name)!),
    next: 0,
  });
  const stack = [visit(rule)];
  const onStack = new Set([rule]);
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const pending = top.references[top.next];
    if (pending !== undefined) {
      top.next += 1;
      const [reference] = pending;
      if (nesting.has(reference)) continue;
      if (onStack.has(reference)) {
        const path = stack.map((v) => v.rule);
        on.loop(path.slice(path.indexOf(reference)));
        return;
      }
      stack.push(visit(reference));
      onStack.add(reference);
      continue;
    }
    // Every rule this one names is measured: a reference nests one level below where it sits.
    let deepest = nestingOf(checks.get(top.rule)!);
    for (const [reference, depth] of top.references) {
      const through = depth + 1 + nesting.get(reference)!;
      if (through <= deepest) continue;
      deepest = through;
      deepestVia.set(top.rule, reference);
    }
    if (deepest > MAX_CHECK_NESTING) {
      on.tooDeep(deepestChain(top.rule, deepestVia));
      return;
    }
    nesting.set(top.rule, deepest);
    stack.pop();
    onStack.delete(top.rule);
  }
};

/** A rule, the rule it names that nests deepest, the one that one names, and so on. */
const deepestChain = (rule: string, deepestVia: ReadonlyMap<string, string>): string[] => {
  const path = [rule];
  for (let next = deepestVia.get(rule); next !== undefined; next = deepestVia.get(next)) {
    path.push(next);
  }
  return path;
};

/** `rule:a -> rule:b -> rule:a`, only a few rules at each end of a long chain. */
const chain = (path: readonly string[]): string => {
  const named = (names: readonly string[]) => names.map((name) => `rule:${name}`).join(' -> ');
  return path.length > 8
    ? `${named(path.slice(0, 4))} -> ... -> ${named(path.slice(-3))}`
    : named(path);
};
