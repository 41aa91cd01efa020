import { GraphQLError, type SelectionSetNode, type ValidationRule } from 'graphql';
import { fieldsOf, namedTypeOf } from './selection-walk.js';
import type { GraphQLNamedType, ValidationContext } from 'graphql';

/** How deeply fields nest under the selection set; stops counting past `stopAt`. */
const depthOf = (
  context: ValidationContext,
  selectionSet: SelectionSetNode,
  parentType: GraphQLNamedType | undefined,
  stopAt: number,
): number => {
  if (stopAt <= 0) return 1;
  let deepest = 0;
  for (const { node, definition } of fieldsOf(context, selectionSet, parentType)) {
    const below = node.selectionSet
      ? depthOf(context, node.selectionSet, namedTypeOf(definition), stopAt - 1)
      : 0;
    deepest = Math.max(deepest, 1 + below);
  }
  return deepest;
};

/** Refuses an operation whose fields nest deeper than `maxDepth` (introspection aside). */
export const maxDepthRule =
  (maxDepth: number): ValidationRule =>
  (context) => ({
    OperationDefinition(operation) {
      const root = context.getSchema().getRootType(operation.operation) ?? undefined;
      const depth = depthOf(context, operation.selectionSet, root, maxDepth + 1);
      if (depth > maxDepth) {
        context.reportError(
          new GraphQLError(`The query is nested too deeply: the limit is ${maxDepth} levels.`, {
            nodes: [operation],
            extensions: { limit: 'depth', maxDepth },
          }),
        );
      }
    },
  });
