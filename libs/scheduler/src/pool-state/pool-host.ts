/** The parts of a pool host string `hostname@backend#pool` (Manila's share_utils.extract_host). */
export interface PoolHostParts {
  /** `hostname@backend`: everything before `#`. */
  readonly backend: string;
  /** `hostname`: everything before `@`. */
  readonly hostname: string;
  /** The name after `@` in the back end, or null. */
  readonly backendName: string | null;
  /** The part after `#`, or null. */
  readonly pool: string | null;
}

export const parsePoolHost = (host: string): PoolHostParts => {
  const hash = host.indexOf('#');
  const backend = hash < 0 ? host : host.slice(0, hash);
  const at = backend.indexOf('@');
  return {
    backend,
    hostname: at < 0 ? backend : backend.slice(0, at),
    backendName: at < 0 ? null : backend.slice(at + 1),
    pool: hash < 0 ? null : host.slice(hash + 1),
  };
};

export const poolHost = (backend: string, pool: string): string => `${backend}#${pool}`;
