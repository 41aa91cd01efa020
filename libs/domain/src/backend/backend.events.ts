import type { DomainEvent } from '../shared/decider.js';
import type { BackendServiceEvent } from './backend-service.events.js';

export interface BackendConfiguration {
  /** `host@backend`. */
  readonly backend: string;
  readonly availabilityZone: string;
  readonly replicationDomain: string | null;
  readonly driver: string;
  readonly pools: readonly string[];
  /** The share node serving it (absent in registrations recorded before nodes were named). */
  readonly node?: string;
}

/** A share node started serving a back end, or its configuration changed. */
export type BackendRegistered = DomainEvent<
  'BackendRegistered',
  BackendConfiguration & { registeredAt: string }
>;

/**
 * The node that served a back end started without it in its configuration: nothing is placed
 * there, and the scheduler no longer waits for its reports. Registering it again brings it back.
 */
export type BackendRemoved = DomainEvent<
  'BackendRemoved',
  { backend: string; node: string; removedAt: string }
>;

export type BackendEvent = BackendRegistered | BackendRemoved | BackendServiceEvent;

export const BACKEND_STREAM_PREFIX = 'backend-';
export const backendStream = (backend: string): string => `${BACKEND_STREAM_PREFIX}${backend}`;
