import { deciderSpec } from '../test-support/decider-spec.js';
import { backendDecider } from './backend.decide.js';
import type { BackendEvent } from './backend.events.js';

const spec = deciderSpec(backendDecider);
const configuration = {
  backend: 'node1@alpha',
  availabilityZone: 'az-1',
  replicationDomain: 'rd-1',
  driver: 'local',
  pools: ['p1', 'p2'],
};
const registered: BackendEvent = {
  type: 'BackendRegistered',
  data: { ...configuration, registeredAt: 't0' },
};

describe('backend decider', () => {
  it('registers a new back end', () =>
    spec.given([]).when({ type: 'RegisterBackend', configuration, now: 't0' }).then([registered]));
  it('records nothing when a node restarts with the same configuration', () =>
    spec
      .given([registered])
      .when({ type: 'RegisterBackend', configuration, now: 't1' })
      .thenNothing());
  it('records a changed configuration', () =>
    spec
      .given([registered])
      .when({
        type: 'RegisterBackend',
        configuration: { ...configuration, pools: ['p1'] },
        now: 't1',
      })
      .then([
        {
          type: 'BackendRegistered',
          data: { ...configuration, pools: ['p1'], registeredAt: 't1' },
        },
      ]));
});
