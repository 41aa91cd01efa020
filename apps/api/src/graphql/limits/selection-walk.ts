import {
  getNamedType,
  isListType,
  isNonNullType,
  isObjectType,
  isInterfaceType,
  Kind,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type SelectionSetNode,
  type ValidationContext,
  type FieldNode,
} from 'graphql';

/** Introspection fields (`__schema`, `__typename`, ...) cost nothing: the schema bounds them. */
const isIntrospection = (field: FieldNode) => field.name.value.startsWith('__');

/**
 * Each field of a selection set with its definition, fragments spread in place. A fragment
 * spread twice at one level is walked once: GraphQL merges the fields, and fragments that
 * spread each other twice over could otherwise cost an exponential walk.
 */
export function* fieldsOf(
  context: ValidationContext,
  selectionSet: SelectionSetNode,
  parentType: GraphQLNamedType | undefined,
  spread: Set<string> = new Set(),
): Generator<{ node: FieldNode; definition: GraphQLField<unknown, unknown> | undefined }> {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      if (isIntrospection(selection)) continue;
      const fields =
        isObjectType(parentType) || isInterfaceType(parentType) ? parentType.getFields() : {};
      yield { node: selection, definition: fields[selection.name.value] };
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const typeName = selection.typeCondition?.name.value;
      const type = typeName ? context.getSchema().getType(typeName) : parentType;
      yield* fieldsOf(context, selection.selectionSet, type ?? undefined, spread);
    } else {
      const name = selection.name.value;
      // Also ends a cycle of fragments, which graphql's own NoFragmentCycles rule reports.
      if (spread.has(name)) continue;
      spread.add(name);
      const fragment = context.getFragment(name);
      if (!fragment) continue;
      const type = context.getSchema().getType(fragment.typeCondition.name.value);
      yield* fieldsOf(context, fragment.selectionSet, type ?? undefined, spread);
    }
  }
}

export const namedTypeOf = (
  definition: GraphQLField<unknown, unknown> | undefined,
): GraphQLNamedType | undefined => (definition ? getNamedType(definition.type) : undefined);

export const isList = (type: GraphQLOutputType): boolean =>
  isListType(isNonNullType(type) ? type.ofType : type);
