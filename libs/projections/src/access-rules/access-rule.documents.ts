import { accessRuleStateOf, type AccessRuleState, type ShareFields } from '#hawser/domain';

export const ACCESS_RULES = 'access_rules';

/** One access rule as Manila's access API shows it (reference 1.7), under its column names. */
export interface AccessRuleDocument {
  id: string;
  /** Revision of the share stream this document reflects. */
  revision: number;
  share_id: string;
  project_id: string;
  access_type: string;
  access_to: string;
  access_level: string;
  access_key: string | null;
  /** The worst of the per-instance states. */
  state: string;
  /** Per share instance (replica). */
  instance_states: Record<string, string>;
  metadata: Record<string, string>;
  created_at: string;
  updated_at: string;
}

export const toAccessRuleDocument = (
  share: ShareFields,
  rule: AccessRuleState,
  revision: number,
): AccessRuleDocument => ({
  id: rule.id,
  revision,
  share_id: share.id,
  project_id: share.projectId,
  access_type: rule.accessType,
  access_to: rule.accessTo,
  access_level: rule.accessLevel,
  access_key: rule.accessKey,
  state: accessRuleStateOf(rule),
  instance_states: { ...rule.instances },
  metadata: { ...rule.metadata },
  created_at: rule.createdAt,
  updated_at: rule.updatedAt,
});
