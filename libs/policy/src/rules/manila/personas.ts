/** Manila's secure-RBAC check strings (manila/policies/base.py), shared by the rule modules. */
export const ADMIN = 'rule:context_is_admin';
export const ADMIN_OR_PROJECT_MEMBER = '(rule:context_is_admin) or (rule:project-member)';
export const ADMIN_OR_PROJECT_READER = '(rule:context_is_admin) or (rule:project-reader)';

/** The deprecated, unscoped defaults that legacy mode adds back. */
export const LEGACY_DEFAULT = 'rule:default';
export const LEGACY_ADMIN_API = 'rule:admin_api';
