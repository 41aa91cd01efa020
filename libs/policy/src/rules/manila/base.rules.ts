import type { RuleDefinition } from '../rule-definition.js';

/**
 * Manila 15.1's manila/policies/base.py: the personas the other rules are written in. The
 * project personas compare the caller's project with the target's; `context_is_admin` is the
 * cloud administrator; `admin_or_owner`, `default` and `admin_api` are the unscoped rules the
 * deprecated (legacy) defaults refer to.
 */
export const BASE_RULES: readonly RuleDefinition[] = [
  {
    name: 'project-admin',
    check: 'role:admin and project_id:%(project_id)s',
    description: 'Project scoped Administrator',
    operations: [],
  },
  {
    name: 'project-member',
    check: 'role:member and project_id:%(project_id)s',
    description: 'Project scoped Member',
    operations: [],
  },
  {
    name: 'project-reader',
    check: 'role:reader and project_id:%(project_id)s',
    description: 'Project scoped Reader',
    operations: [],
  },
  {
    name: 'context_is_admin',
    check: 'role:admin',
    description: 'Privileged users checked via "context.is_admin"',
    operations: [],
  },
  {
    name: 'admin_or_owner',
    check: 'is_admin:True or project_id:%(project_id)s',
    description: 'Administrator or Member of the project',
    operations: [],
  },
  {
    name: 'default',
    check: 'rule:admin_or_owner',
    description: 'Default rule for most non-Admin APIs',
    operations: [],
  },
  {
    name: 'admin_api',
    check: 'is_admin:True',
    description: 'Default rule for most Admin APIs.',
    operations: [],
  },
];
