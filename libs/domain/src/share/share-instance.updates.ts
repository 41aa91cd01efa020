import type { ActiveShare, ShareInstanceState } from './share.state.js';

export const updateInstance = (
  state: ActiveShare,
  instanceId: string,
  update: (instance: ShareInstanceState) => ShareInstanceState,
): ActiveShare => ({
  ...state,
  instances: state.instances.map((i) => (i.id === instanceId ? update(i) : i)),
});
