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

/** Each field of a selection set with its definition, fragments spread in place. */
export function* fieldsOf(
  context: ValidationContext,
  selectionSet: SelectionSetNode,
  parentType: GraphQLNamedType | undefined,
  spreading: ReadonlySet<string> = new Set(),
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
      yield* fieldsOf(context, selection.selectionSet, type ?? undefined, spreading);
    } else {
      const name = selection.name.value;
      // A cycle of fragments is reported by graphql's own NoFragmentCycles rule.
      if (spreading.has(name)) continue;
      const fragment = context.getFragment(name);
      if (!fragment) continue;
      const type = context.getSchema().getType(fragment.typeCondition.name.value);
      yield* fieldsOf(
        context,
        fragment.selectionSet,
        type ?? undefined,
        new Set([...spreading, name]),
      );
    }
  }
}

export const namedTypeOf = (
  definition: GraphQLField<unknown, unknown> | undefined,
): GraphQLNamedType | undefined => (definition ? getNamedType(definition.type) : undefined);

export const isList = (type: GraphQLOutputType): boolean =>
  isListType(isNonNullType(type) ? type.ofType : type);
