import { deciderSpec } from '../test-support/decider-spec.js';
import { backendDecider } from './backend.decide.js';
import type { BackendEvent } from './backend.events.js';

const spec = deciderSpec(backendDecider);
const backend = 'node1@alpha';
const registered: BackendEvent = {
  type: 'BackendRegistered',
  data: {
    backend,
    availabilityZone: 'az-1',
    replicationDomain: null,
    driver: 'local',
    pools: ['p1'],
    registeredAt: 't0',
  },
};
const disabled: BackendEvent = {
  type: 'BackendServiceDisabled',
  data: { backend, reason: 'maintenance', disabledAt: 't1' },
};

describe('backend decider: the manila-share service enabled and disabled', () => {
  it('disables a registered back end, keeping the reason', () =>
    spec
      .given([registered])
      .when({ type: 'DisableBackendService', backend, reason: 'maintenance', now: 't1' })
      .then([disabled]));

  it('records nothing when disabling a disabled back end again', () =>
    spec
      .given([registered, disabled])
      .when({ type: 'DisableBackendService', backend, reason: null, now: 't2' })
      .thenNothing());

  it('enables a disabled back end', () =>
    spec
      .given([registered, disabled])
      .when({ type: 'EnableBackendService', backend, now: 't2' })
      .then([{ type: 'BackendServiceEnabled', data: { backend, enabledAt: 't2' } }]));

  it('records nothing when enabling an enabled back end', () =>
    spec
      .given([registered])
      .when({ type: 'EnableBackendService', backend, now: 't2' })
      .thenNothing());

  it('keeps a back end disabled when its node registers again at start', () =>
    spec
      .given([registered, disabled, { ...registered, data: { ...registered.data, pools: ['p2'] } }])
      .when({ type: 'EnableBackendService', backend, now: 't3' })
      .then([{ type: 'BackendServiceEnabled', data: { backend, enabledAt: 't3' } }]));

  it('refuses a back end no node registered (404)', () =>
    spec
      .given([])
      .when({ type: 'DisableBackendService', backend, reason: null, now: 't1' })
      .thenThrows('not_found', /Could not find binary manila-share on host node1@alpha/));
});
