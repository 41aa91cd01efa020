import fs from 'node:fs';
import { sampleBackends, validateBackendConfig, type BackendConfig } from '#hawser/drivers';
import type { HawserConfig } from '#hawser/platform';

/** The back ends this process serves: HAWSER_BACKENDS, or the sample configuration. */
export const loadBackends = (config: HawserConfig): BackendConfig[] => {
  if (!config.backendsFile) return sampleBackends(config.dataDir);
  const parsed: unknown = JSON.parse(fs.readFileSync(config.backendsFile, 'utf8'));
  const backends = (
    Array.isArray(parsed) ? parsed : (parsed as { backends?: unknown }).backends
  ) as BackendConfig[] | undefined;
  if (!Array.isArray(backends)) {
    throw new Error(`${config.backendsFile}: expected a list of back ends or {"backends": [...]}`);
  }
  backends.forEach(validateBackendConfig);
  return backends;
};
