import type { DomainEvent } from '../shared/decider.js';

/**
 * An admin disabled the back end's manila-share service: the scheduler places nothing new on
 * it until it is enabled again. The reason is kept for Manila's 2.83 `disabled_reason`.
 */
export type BackendServiceDisabled = DomainEvent<
  'BackendServiceDisabled',
  { backend: string; reason: string | null; disabledAt: string }
>;

export type BackendServiceEnabled = DomainEvent<
  'BackendServiceEnabled',
  { backend: string; enabledAt: string }
>;

export type BackendServiceEvent = BackendServiceDisabled | BackendServiceEnabled;
