/** The process's PolicyHolder: the policy in force, replaced on SIGHUP. */
export const POLICY_HOLDER = Symbol('POLICY_HOLDER');
