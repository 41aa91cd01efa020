import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PolicyFileError } from './policy-file-error.js';

/**
 * Reads a Manila-format policy file: a YAML (or JSON) mapping of rule name to check string.
 * An empty file overrides nothing. Returns the overrides in file order.
 */
export const readPolicyFile = (file: string): ReadonlyMap<string, string> => {
  const document = parseYaml(file, readText(file));
  if (document === null || document === undefined) return new Map();
  if (!(document instanceof Map)) {
    throw new PolicyFileError(file, undefined, 'expected a mapping of rule names to check strings');
  }
  const overrides = new Map<string, string>();
  for (const [name, check] of document) {
    if (typeof name !== 'string') {
      throw new PolicyFileError(file, undefined, `rule name ${String(name)} is not a string`);
    }
    if (typeof check !== 'string') {
      throw new PolicyFileError(file, name, `the check must be a string, not ${typeOf(check)}`);
    }
    overrides.set(name, check);
  }
  return overrides;
};

const readText = (file: string): string => {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new PolicyFileError(file, undefined, `cannot be read (${(error as Error).message})`);
  }
};

/** Maps stay Maps, so rule names such as `__proto__` are ordinary keys; duplicates are refused. */
const parseYaml = (file: string, text: string): unknown => {
  // Loaded here, not at the top: most starts have no policy file.
  const { parse, YAMLParseError } = createRequire(import.meta.url)('yaml') as typeof import('yaml');
  try {
    return parse(text, { mapAsMap: true, uniqueKeys: true, logLevel: 'error' });
  } catch (error) {
    // Besides its parse errors, the library refuses aliases that expand past its bound (a
    // "billion laughs" file) with a ReferenceError: the file is refused either way.
    if (error instanceof YAMLParseError || error instanceof ReferenceError) {
      throw new PolicyFileError(file, undefined, `is not valid YAML: ${error.message}`);
    }
    throw error;
  }
};

const typeOf = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (value instanceof Map) return 'a mapping';
  return typeof value;
};
