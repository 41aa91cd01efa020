import type { Decider } from '../shared/decider.js';
import { notFound } from '../shared/domain-error.js';
import type { BackendConfiguration, BackendEvent } from './backend.events.js';

/**
 * A registered back end, whether an admin disabled its service and whether its node dropped it
 * from its configuration.
 */
export type BackendState =
  (BackendConfiguration & { readonly disabled: boolean; readonly removed: boolean }) | null;

export type BackendCommand =
  | { type: 'RegisterBackend'; configuration: BackendConfiguration; now: string }
  /** Manila's `PUT /services/disable` of a manila-share service. */
  | { type: 'DisableBackendService'; backend: string; reason: string | null; now: string }
  | { type: 'EnableBackendService'; backend: string; now: string }
  /** A node started without this back end, which it served before, in its configuration. */
  | { type: 'RemoveBackend'; backend: string; node: string; now: string };

const sameConfiguration = (a: BackendConfiguration, b: BackendConfiguration): boolean =>
  a.availabilityZone === b.availabilityZone &&
  a.replicationDomain === b.replicationDomain &&
  a.driver === b.driver &&
  a.node === b.node &&
  a.pools.length === b.pools.length &&
  a.pools.every((p, i) => p === b.pools[i]);

/**
 * Manila's HostBinaryNotFound (404) for a service that is not there; its API lets the exception
 * through, so the fault names its class first.
 */
export const hostBinaryNotFound = (binary: string, host: string) =>
  notFound(`HostBinaryNotFound: Could not find binary ${binary} on host ${host}.`);

/** The back end's state, or Manila's 404 for a service no node registered. */
const registered = (state: BackendState, backend: string) => {
  if (!state) throw hostBinaryNotFound('manila-share', backend);
  return state;
};

export const backendDecider: Decider<BackendState, BackendCommand, BackendEvent> = {
  initialState: () => null,
  evolve: (state, event) => {
    switch (event.type) {
      case 'BackendRegistered': {
        const { registeredAt: _at, ...configuration } = event.data;
        return { ...configuration, disabled: state?.disabled ?? false, removed: false };
      }
      case 'BackendRemoved':
        return state && { ...state, removed: true };
      case 'BackendServiceDisabled':
        return state && { ...state, disabled: true };
      case 'BackendServiceEnabled':
        return state && { ...state, disabled: false };
    }
  },
  decide: (command, state) => {
    switch (command.type) {
      // A node registers at every start; only a new or changed configuration is worth keeping.
      case 'RegisterBackend':
        return state && !state.removed && sameConfiguration(state, command.configuration)
          ? []
          : [
              {
                type: 'BackendRegistered',
                data: { ...command.configuration, registeredAt: command.now },
              },
            ];
      // Manila answers 200 whether or not the flag changes; only a change is recorded.
      case 'DisableBackendService':
        return registered(state, command.backend).disabled
          ? []
          : [
              {
                type: 'BackendServiceDisabled',
                data: { backend: command.backend, reason: command.reason, disabledAt: command.now },
              },
            ];
      case 'EnableBackendService':
        return registered(state, command.backend).disabled
          ? [
              {
                type: 'BackendServiceEnabled',
                data: { backend: command.backend, enabledAt: command.now },
              },
            ]
          : [];
      // Only the node that serves it may drop it; another node's start says nothing about it.
      case 'RemoveBackend':
        return state && !state.removed && state.node === command.node
          ? [
              {
                type: 'BackendRemoved',
                data: { backend: command.backend, node: command.node, removedAt: command.now },
              },
            ]
          : [];
    }
  },
};
