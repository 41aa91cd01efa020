import {
  GraphQLError,
  Kind,
  type FieldNode,
  type GraphQLField,
  type GraphQLNamedType,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { fieldsOf, isList, namedTypeOf } from './selection-walk.js';

/** Items assumed for a list field that says nothing about its size. */
export const DEFAULT_LIST_SIZE = 10;
/** Items assumed when `first` is a variable: validation runs before variables are known. */
export const MAX_PAGE_SIZE = 100;

/**
 * How many items a field's list holds at most, for the estimate: its `first` argument when
 * given, else the `listSize` the schema declares in the field's extensions (1 for a
 * connection's nodes, whose size its parent's `first` already counts), else a default.
 */
const itemsOf = (node: FieldNode, definition: GraphQLField<unknown, unknown>): number => {
  const first = node.arguments?.find((argument) => argument.name.value === 'first');
  if (first?.value.kind === Kind.INT) return Math.max(0, Number(first.value.value));
  if (first?.value.kind === Kind.VARIABLE) return MAX_PAGE_SIZE;
  const declaredFirst = definition.args.find((argument) => argument.name === 'first');
  if (typeof declaredFirst?.defaultValue === 'number') return declaredFirst.defaultValue;
  const listSize = definition.extensions['listSize'];
  if (typeof listSize === 'number') return listSize;
  return isList(definition.type) ? DEFAULT_LIST_SIZE : 1;
};

/**
 * Deepest level the estimate walks. Deeper queries are refused by the depth limit anyway; the
 * bound keeps a cycle of fragments (reported by graphql's own rules) from recursing for ever.
 */
const MAX_LEVELS = 64;

/**
 * Every field costs 1, and what is below it once per item of its list. Returns as soon as the
 * cost passes `stopAt`, so a huge request is not walked in full.
 */
const complexityOf = (
  context: ValidationContext,
  selectionSet: SelectionSetNode,
  parentType: GraphQLNamedType | undefined,
  stopAt: number,
  levelsLeft: number,
): number => {
  let total = 0;
  for (const { node, definition } of fieldsOf(context, selectionSet, parentType)) {
    total += 1;
    if (total > stopAt) return total;
    if (!node.selectionSet || !definition || levelsLeft <= 1) continue;
    const items = itemsOf(node, definition);
    if (items === 0) continue;
    // What each item may cost before the whole passes the limit.
    const budget = Math.floor((stopAt - total) / items);
    const below = complexityOf(
      context,
      node.selectionSet,
      namedTypeOf(definition),
      budget,
      levelsLeft - 1,
    );
    total += items * below;
    if (total > stopAt) return total;
  }
  return total;
};

/**
 * Refuses an operation whose estimated cost exceeds `maxComplexity`: one point per field,
 * multiplied by the sizes of the lists it sits in, so one request cannot ask for 100 shares
 * each with 100 snapshots each with every field.
 */
export const maxComplexityRule =
  (maxComplexity: number): ValidationRule =>
  (context) => ({
    OperationDefinition(operation) {
      const root = context.getSchema().getRootType(operation.operation) ?? undefined;
      const cost = complexityOf(context, operation.selectionSet, root, maxComplexity, MAX_LEVELS);
      if (cost > maxComplexity) {
        context.reportError(
          new GraphQLError(
            `The query is too complex: its estimated cost exceeds the limit of ${maxComplexity}.`,
            { nodes: [operation], extensions: { limit: 'complexity', maxComplexity } },
          ),
        );
      }
    },
  });
