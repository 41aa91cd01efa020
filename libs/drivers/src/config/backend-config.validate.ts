import type { BackendConfig, CifsServerOptions, NfsServerOptions } from './backend-config.js';

/** Refuses configurations Manila would refuse at service start, with the reason. */
export function validateBackendConfig(config: BackendConfig): void {
  const problems: string[] = [];
  if (!/^[^@#]+@[^@#]+$/.test(config.name)) {
    problems.push(`name "${config.name}" must be host@backend`);
  }
  if (!config.availabilityZone) problems.push('availabilityZone is required');
  if (config.pools.length === 0) problems.push('at least one pool is required');
  const names = new Set<string>();
  for (const pool of config.pools) {
    if (!/^[A-Za-z0-9_.-]+$/.test(pool.name)) problems.push(`pool name "${pool.name}" is invalid`);
    if (names.has(pool.name)) problems.push(`pool "${pool.name}" is listed twice`);
    names.add(pool.name);
    if (pool.totalCapacityGb !== undefined && !(pool.totalCapacityGb > 0)) {
      problems.push(`pool "${pool.name}" totalCapacityGb must be positive`);
    }
  }
  const ratio = config.options?.maxOverSubscriptionRatio;
  if (ratio !== undefined && ratio < 1) problems.push('maxOverSubscriptionRatio must be >= 1');
  if (config.driver === 'local') {
    if (!config.options?.root) problems.push('options.root is required for the local driver');
    if (config.options?.replicationType === 'writable') {
      problems.push('the local driver cannot keep writable replicas in sync');
    }
    problems.push(...nfsServerProblems(config.options?.nfsServer));
    problems.push(...cifsServerProblems(config.options?.cifsServer));
  }
  if (problems.length > 0) {
    throw new Error(`invalid back end ${config.name}: ${problems.join('; ')}`);
  }
}

function nfsServerProblems(nfs: NfsServerOptions | undefined): string[] {
  if (!nfs) return [];
  const problems: string[] = [];
  if (nfs.mode !== undefined && nfs.mode !== 'managed' && nfs.mode !== 'external') {
    problems.push('nfsServer.mode must be managed or external');
  }
  if (!isPort(nfs.port)) {
    problems.push('nfsServer.port must be a TCP port');
  }
  if (nfs.mode === 'external' && !nfs.pidFile) {
    problems.push('nfsServer.pidFile is required with an external Ganesha');
  }
  const first = nfs.firstExportId;
  if (first !== undefined && !(Number.isInteger(first) && first >= 1 && first < 65535)) {
    problems.push('nfsServer.firstExportId must be between 1 and 65534');
  }
  return problems;
}

function cifsServerProblems(cifs: CifsServerOptions | undefined): string[] {
  if (!cifs) return [];
  const problems: string[] = [];
  if (cifs.mode !== undefined && cifs.mode !== 'managed' && cifs.mode !== 'external') {
    problems.push('cifsServer.mode must be managed or external');
  }
  if (!isPort(cifs.port)) problems.push('cifsServer.port must be a TCP port');
  if (cifs.mode === 'external' && !cifs.configFile) {
    problems.push('cifsServer.configFile is required with an external smbd');
  }
  return problems;
}

function isPort(port: number | undefined): boolean {
  return port === undefined || (Number.isInteger(port) && port > 0 && port < 65536);
}
