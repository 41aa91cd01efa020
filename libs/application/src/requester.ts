import type { ShareRecord } from '#hawser/projections';
import type { CommandContext } from './command-handler.js';

/** The authenticated caller of a use case. */
export interface Caller {
  readonly userId: string;
  readonly projectId: string;
  readonly roles: readonly string[];
  readonly isAdmin: boolean;
}

/** The negotiated Manila microversion a use case answers at. */
export interface ApiVersion {
  readonly major: number;
  readonly minor: number;
  readonly text: string;
}

/** True when `version` is at least `major.minor`. */
export const atLeast = (version: ApiVersion, text: string): boolean => {
  const [major, minor] = text.split('.').map(Number) as [number, number];
  return version.major > major || (version.major === major && version.minor >= minor);
};

/**
 * The caller's policy for the rules that depend on what a request asks (a public share, a forced
 * extend, admin-only metadata) rather than on its route, which the API's guard checks first.
 */
export interface CallerPolicy {
  allows(rule: string): boolean;
  /** Manila's 403 unless the caller passes `rule`. */
  enforce(rule: string): void;
}

/** Who asks a use case, at which microversion: what every query carries. */
export interface Reader {
  readonly caller: Caller;
  readonly version: ApiVersion;
  /**
   * The share's record as the request's policy check read it a moment before, when the route's
   * resource is a share: the use case's first look-up of that share takes it instead of reading
   * it again (a share's record holds its access rules, so it can be large).
   */
  readonly checkedShare?: ShareRecord;
}

/** A reader who may change things: what every user command carries. */
export interface Requester extends Reader {
  readonly policy: CallerPolicy;
  /** A fresh command context (id, request as cause) for each command the use case records. */
  commandContext(): CommandContext;
}
