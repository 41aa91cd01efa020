import type { QuotaLimits } from '#hawser/domain';

/** The configuration the use cases read (a subset of the process's configuration). */
export interface UseCaseSettings {
  readonly enabledShareProtocols: readonly string[];
  readonly useSchedulerCreatingShareFromSnapshot: boolean;
  readonly defaultShareType: string | undefined;
  readonly quotaDefaults: QuotaLimits;
  /** How long a share stays in the recycle bin (HAWSER_SOFT_DELETE_RETENTION_S). */
  readonly softDeleteRetentionS: number;
}

export const USE_CASE_SETTINGS = Symbol('USE_CASE_SETTINGS');
