import { MANILA_DEFAULT_QUOTAS, QUOTA_RESOURCES, type QuotaLimits } from '#hawser/domain';

/**
 * Manila's quota_<resource> options: HAWSER_QUOTA_SHARES, HAWSER_QUOTA_GIGABYTES, ... (upper-case
 * resource names), each an integer >= -1; unset means Manila's default.
 */
export const quotaDefaultsFrom = (env: NodeJS.ProcessEnv): QuotaLimits => {
  const limits: Record<string, number> = { ...MANILA_DEFAULT_QUOTAS };
  for (const resource of QUOTA_RESOURCES) {
    const name = `HAWSER_QUOTA_${resource.toUpperCase()}`;
    const value = env[name];
    if (value === undefined || value === '') continue;
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < -1) {
      throw new Error(`${name} must be an integer >= -1, not ${JSON.stringify(value)}`);
    }
    limits[resource] = parsed;
  }
  return limits as QuotaLimits;
};
