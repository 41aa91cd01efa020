import type { z } from 'zod';

/**
 * A setting Hawser refuses to start with. Its message is one line naming where the setting
 * comes from (a variable or a file), the key, what was expected and what was given; the mains
 * print it without a stack trace and exit with status 78 (EX_CONFIG).
 */
export class ConfigurationError extends Error {
  override readonly name = 'ConfigurationError';
}

/** The exit status of a process refused for its configuration (sysexits' EX_CONFIG). */
export const CONFIGURATION_EXIT_CODE = 78;

type Path = readonly PropertyKey[];

const valueAt = (input: unknown, path: Path): unknown =>
  path.reduce<unknown>(
    (value, key) =>
      value !== null && typeof value === 'object'
        ? (value as Record<PropertyKey, unknown>)[key]
        : undefined,
    input,
  );

/** `backends[0].pools[1].name` for the path of a key inside a file. */
export const keyPath = (path: Path): string =>
  path
    .map((key, index) =>
      typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`,
    )
    .join('');

const given = (value: unknown): string => (value === undefined ? 'nothing' : JSON.stringify(value));

const squash = (name: string): string => name.toLowerCase().replace(/[-_]/g, '');

/** The known key a typo most likely meant: equal but for case, `_` and `-`, or one edit away. */
export const closestKey = (key: string, known: Iterable<string>): string | undefined => {
  const candidates = [...known];
  const exact = candidates.find((candidate) => squash(candidate) === squash(key));
  if (exact) return exact;
  return candidates.find((candidate) => editDistance(squash(candidate), squash(key)) <= 2);
};

const editDistance = (a: string, b: string): number => {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
};

export interface DescribeOptions {
  /** How a key is named in the message (`HAWSER_PORT` or `backends[0].pools`). */
  readonly name: (path: Path) => string;
  /** The keys allowed where an unknown key was found, for "did you mean". */
  readonly knownKeys: (path: Path) => readonly string[];
}

/** One phrase per problem zod found: the key, what was expected, what was given. */
export const describeIssues = (
  error: z.ZodError,
  input: unknown,
  options: DescribeOptions,
): string[] =>
  error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      const known = options.knownKeys(issue.path);
      return issue.keys.map((key) => {
        const suggestion = closestKey(key, known);
        return (
          `${options.name([...issue.path, key])}: unknown key (given ${given(valueAt(input, [...issue.path, key]))}); ` +
          (suggestion ? `did you mean ${suggestion}?` : `expected one of ${known.join(', ')}`)
        );
      });
    }
    const value = valueAt(input, issue.path);
    return [`${options.name(issue.path)}: expected ${issue.message}, given ${given(value)}`];
  });

interface SchemaDefinition {
  readonly type: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly innerType?: z.ZodType;
  readonly element?: z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly in?: z.ZodType;
}

const definitionOf = (schema: z.ZodType): SchemaDefinition =>
  (schema as unknown as { _zod: { def: SchemaDefinition } })._zod.def;

/** The schemas that describe the value at `path` (several below a union). */
const schemasAt = (schema: z.ZodType, path: Path): z.ZodType[] => {
  const def = definitionOf(schema);
  if (def.innerType) return schemasAt(def.innerType, path);
  if (def.type === 'pipe' && def.in) return schemasAt(def.in, path);
  if (def.options) return def.options.flatMap((option) => schemasAt(option, path));
  if (path.length === 0) return [schema];
  const [key, ...rest] = path;
  if (def.type === 'array' && def.element) return schemasAt(def.element, rest);
  const child = def.shape?.[String(key)];
  return child ? schemasAt(child, rest) : [];
};

/** The keys an object schema allows at `path` (the union of a union's options). */
export const schemaKeysAt = (schema: z.ZodType, path: Path): string[] => [
  ...new Set(schemasAt(schema, path).flatMap((s) => Object.keys(definitionOf(s).shape ?? {}))),
];
