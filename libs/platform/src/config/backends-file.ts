import fs from 'node:fs';
import {
  backendsFileSchema,
  sampleBackends,
  validateBackendConfig,
  type BackendConfig,
} from '#hawser/drivers';
import {
  ConfigurationError,
  describeIssues,
  keyPath,
  schemaKeysAt,
} from './configuration-error.js';
import type { HawserConfig } from './hawser-config.js';

const readJson = (source: string, file: string): unknown => {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    throw new ConfigurationError(`${source}: cannot be read (${code ?? message})`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ConfigurationError(`${source}: expected JSON, ${(error as Error).message}`);
  }
};

/**
 * The back ends this process serves: those of the file HAWSER_BACKENDS names, checked against
 * the back-end schema, or the sample configuration. A file is a list of back ends or
 * `{"backends": [...]}`; a problem is refused with a ConfigurationError naming the file and key.
 */
export const loadBackends = (config: HawserConfig): BackendConfig[] => {
  if (!config.backendsFile) return sampleBackends(config.dataDir);
  const source = `back-end file ${config.backendsFile} (HAWSER_BACKENDS)`;
  const raw = readJson(source, config.backendsFile);
  // A bare list reads as {"backends": [...]}, so both forms share one schema and one key path.
  const listed = Array.isArray(raw);
  const input = listed ? { backends: raw } : raw;
  const parsed = backendsFileSchema.safeParse(input);
  if (!parsed.success) {
    const problems = describeIssues(parsed.error, input, {
      name: (path) => keyPath(listed ? path.slice(1) : path) || 'the file',
      knownKeys: (path) => schemaKeysAt(backendsFileSchema, path),
    });
    throw new ConfigurationError(`${source}: ${problems.join('; ')}`);
  }
  const backends = parsed.data.backends as BackendConfig[];
  for (const [index, backend] of backends.entries()) {
    try {
      validateBackendConfig(backend);
    } catch (error) {
      const at = listed ? `[${index}]` : `backends[${index}]`;
      throw new ConfigurationError(`${source}: ${at}: ${(error as Error).message}`);
    }
  }
  return backends;
};
