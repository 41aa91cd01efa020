import type { Decider } from '../shared/decider.js';
import type { BackendConfiguration, BackendEvent } from './backend.events.js';

export type BackendState = BackendConfiguration | null;

export type BackendCommand = {
  type: 'RegisterBackend';
  configuration: BackendConfiguration;
  now: string;
};

const sameConfiguration = (a: BackendConfiguration, b: BackendConfiguration): boolean =>
  a.availabilityZone === b.availabilityZone &&
  a.replicationDomain === b.replicationDomain &&
  a.driver === b.driver &&
  a.pools.length === b.pools.length &&
  a.pools.every((p, i) => p === b.pools[i]);

export const backendDecider: Decider<BackendState, BackendCommand, BackendEvent> = {
  initialState: () => null,
  evolve: (_state, event) => {
    const { registeredAt: _at, ...configuration } = event.data;
    return configuration;
  },
  // A node registers at every start; only a new or changed configuration is a fact worth keeping.
  decide: (command, state) =>
    state && sameConfiguration(state, command.configuration)
      ? []
      : [
          {
            type: 'BackendRegistered',
            data: { ...command.configuration, registeredAt: command.now },
          },
        ],
};
