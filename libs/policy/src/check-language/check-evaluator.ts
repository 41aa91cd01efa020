import type { Credentials, PolicyTarget } from '../credentials.js';
import type { CheckNode } from './check-tree.js';

/** A credential value as oslo.context hands it to policy checks. */
type CredentialValue = string | boolean | readonly string[];

export interface CheckScope {
  /** Every rule a `rule:` check may name, already checked to exist and not to loop. */
  readonly rules: ReadonlyMap<string, CheckNode>;
  readonly credentials: Credentials;
  readonly target: PolicyTarget;
}

/** Runs a check tree with oslo.policy's semantics (see the README's check language section). */
export const evaluateCheck = (node: CheckNode, scope: CheckScope): boolean => {
  switch (node.kind) {
    case 'always':
      return true;
    case 'never':
      return false;
    case 'rule': {
      const rule = scope.rules.get(node.rule);
      return rule !== undefined && evaluateCheck(rule, scope);
    }
    case 'role': {
      const role = substitute(node.match, scope.target)?.toLowerCase();
      return role !== undefined && scope.credentials.roles.some((r) => r.toLowerCase() === role);
    }
    case 'credential': {
      const match = substitute(node.match, scope.target);
      const [field, ...rest] = node.path;
      const value = credentialField(scope.credentials, field!);
      return match !== undefined && value !== undefined && matchesPath(value, rest, match);
    }
    case 'literal':
      return substitute(node.match, scope.target) === node.value;
    case 'not':
      return !evaluateCheck(node.operand, scope);
    case 'and':
      return node.operands.every((operand) => evaluateCheck(operand, scope));
    case 'or':
      return node.operands.some((operand) => evaluateCheck(operand, scope));
  }
};

/**
 * Python's `match % target`: each `%(field)s` becomes the target's field as str() prints it.
 * A field the target lacks (or holds as undefined/null) fails the whole check, as oslo's
 * KeyError does, so that two missing values never match each other.
 */
const substitute = (match: string, target: PolicyTarget): string | undefined => {
  let missing = false;
  const text = match.replace(/%\(([^()]*)\)s|%%/g, (_placeholder, field?: string) => {
    if (field === undefined) return '%';
    const value = Object.hasOwn(target, field) ? target[field] : undefined;
    if (value === undefined || value === null) {
      missing = true;
      return '';
    }
    return pythonStr(value);
  });
  return missing ? undefined : text;
};

const pythonStr = (value: string | number | boolean): string =>
  typeof value === 'boolean' ? (value ? 'True' : 'False') : String(value);

/** The fields oslo.context and Manila's context put in a request's policy credentials. */
const credentialField = (credentials: Credentials, field: string): CredentialValue | undefined => {
  switch (field) {
    case 'user_id':
      return credentials.userId;
    case 'project_id':
      return credentials.projectId;
    case 'roles':
      return credentials.roles;
    case 'is_admin':
      return credentials.isAdmin;
    default:
      return undefined;
  }
};

/** oslo's GenericCheck walk: a list matches when any of its elements does. */
const matchesPath = (value: CredentialValue, path: readonly string[], match: string): boolean => {
  if (Array.isArray(value)) {
    return (value as readonly string[]).some((element) => matchesPath(element, path, match));
  }
  return path.length === 0 && pythonStr(value as string | boolean) === match;
};
