/**
 * Checks a JSON value against the part of JSON Schema (2020-12, as OpenAPI 3.1 uses it) that
 * Hawser's OpenAPI document uses; returns the problems found, each with its JSON path.
 */
type Schema = Record<string, unknown>;

const typeOf = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
};

const typeMatches = (value: unknown, wanted: string): boolean =>
  typeOf(value) === wanted || (wanted === 'number' && typeOf(value) === 'integer');

export const resolveRef = (root: Schema, ref: string): Schema => {
  if (!ref.startsWith('#/')) throw new Error(`only local $refs are supported: ${ref}`);
  const target = ref
    .slice(2)
    .split('/')
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], root);
  if (typeof target !== 'object' || target === null) throw new Error(`unresolved $ref ${ref}`);
  return target as Schema;
};

export const checkAgainstSchema = (
  root: Schema,
  schema: Schema,
  value: unknown,
  at = '$',
): string[] => {
  if (typeof schema.$ref === 'string') {
    return checkAgainstSchema(root, resolveRef(root, schema.$ref), value, at);
  }
  const problems: string[] = [];
  if (schema.type !== undefined) {
    const types = ([] as string[]).concat(schema.type as string | string[]);
    if (!types.some((t) => typeMatches(value, t))) {
      return [`${at}: ${JSON.stringify(value)} is not ${types.join(' or ')}`];
    }
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) {
    problems.push(`${at}: ${JSON.stringify(value)} is not one of ${schema.enum.join(', ')}`);
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum)
      problems.push(`${at}: ${value} < ${schema.minimum}`);
    if (typeof schema.maximum === 'number' && value > schema.maximum)
      problems.push(`${at}: ${value} > ${schema.maximum}`);
  }
  for (const part of (schema.allOf as Schema[] | undefined) ?? []) {
    problems.push(...checkAgainstSchema(root, part, value, at));
  }
  if (Array.isArray(value) && schema.items) {
    value.forEach((item, i) =>
      problems.push(...checkAgainstSchema(root, schema.items as Schema, item, `${at}[${i}]`)),
    );
  }
  if (typeOf(value) === 'object') {
    const object = value as Record<string, unknown>;
    const keys = Object.keys(object);
    const properties = (schema.properties as Record<string, Schema> | undefined) ?? {};
    for (const key of (schema.required as string[] | undefined) ?? []) {
      if (!(key in object)) problems.push(`${at}: lacks ${key}`);
    }
    if (typeof schema.minProperties === 'number' && keys.length < schema.minProperties)
      problems.push(`${at}: fewer than ${schema.minProperties} properties`);
    if (typeof schema.maxProperties === 'number' && keys.length > schema.maxProperties)
      problems.push(`${at}: more than ${schema.maxProperties} properties`);
    for (const key of keys) {
      const property = properties[key];
      if (property) {
        problems.push(...checkAgainstSchema(root, property, object[key], `${at}.${key}`));
      } else if (schema.additionalProperties === false) {
        problems.push(`${at}: undocumented property ${key}`);
      } else if (typeof schema.additionalProperties === 'object') {
        problems.push(
          ...checkAgainstSchema(
            root,
            schema.additionalProperties as Schema,
            object[key],
            `${at}.${key}`,
          ),
        );
      }
    }
  }
  return problems;
};
