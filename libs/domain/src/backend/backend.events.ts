import type { DomainEvent } from '../shared/decider.js';
import type { BackendServiceEvent } from './backend-service.events.js';

export interface BackendConfiguration {
  /** `host@backend`. */
  readonly backend: string;
  readonly availabilityZone: string;
  readonly replicationDomain: string | null;
  readonly driver: string;
  readonly pools: readonly string[];
}

/** A share node started serving a back end, or its configuration changed. */
export type BackendRegistered = DomainEvent<
  'BackendRegistered',
  BackendConfiguration & { registeredAt: string }
>;

export type BackendEvent = BackendRegistered | BackendServiceEvent;

export const BACKEND_STREAM_PREFIX = 'backend-';
export const backendStream = (backend: string): string => `${BACKEND_STREAM_PREFIX}${backend}`;
