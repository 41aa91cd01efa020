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

  describe('a node that starts without a back end it served', () => {
    const served = { ...configuration, node: 'east' };
    const registeredOnEast: BackendEvent = {
      type: 'BackendRegistered',
      data: { ...served, registeredAt: 't0' },
    };
    const removed: BackendEvent = {
      type: 'BackendRemoved',
      data: { backend: 'node1@alpha', node: 'east', removedAt: 't1' },
    };
    const remove = (node: string) =>
      ({ type: 'RemoveBackend', backend: 'node1@alpha', node, now: 't1' }) as const;

    it('removes it', () => spec.given([registeredOnEast]).when(remove('east')).then([removed]));
    it('records nothing for another node, which never served it', () =>
      spec.given([registeredOnEast]).when(remove('west')).thenNothing());
    it('records nothing for a back end registered before nodes were named', () =>
      spec.given([registered]).when(remove('east')).thenNothing());
    it('records nothing when it is already removed', () =>
      spec.given([registeredOnEast, removed]).when(remove('east')).thenNothing());
    it('registers it again when a node serves it again, even unchanged', () =>
      spec
        .given([registeredOnEast, removed])
        .when({ type: 'RegisterBackend', configuration: served, now: 't2' })
        .then([{ type: 'BackendRegistered', data: { ...served, registeredAt: 't2' } }]));
  });
});
