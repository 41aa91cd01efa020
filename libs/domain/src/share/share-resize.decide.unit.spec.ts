import { deciderSpec } from '../test-support/decider-spec.js';
import { shareDecider } from './share.decide.js';
import type { ShareEvent } from './share.events.js';
import { activeShareAfter, availableShare, claimed, later } from './test-support/share-history.js';

const spec = deciderSpec(shareDecider);
const requested = (direction: 'extend' | 'shrink', newSize: number): ShareEvent => ({
  type: 'ShareResizeRequested',
  data: { direction, instanceIds: ['i1'], newSize, requestedAt: later },
});
const resize = (direction: 'extend' | 'shrink', newSize: number) => ({
  type: 'ResizeShare' as const,
  direction,
  newSize,
  now: later,
});

describe('share decider: extend and shrink', () => {
  it('extends an available share to a larger size', () =>
    spec
      .given(availableShare())
      .when(resize('extend', 5))
      .then([requested('extend', 5)]));
  it('refuses to extend to the same or a smaller size', () =>
    spec
      .given(availableShare())
      .when(resize('extend', 2))
      .thenThrows(
        'invalid',
        /^Invalid input received: New size for extend must be greater than current size\. \(current: 2, extended: 2\)\.$/,
      ));
  it('refuses a size beyond the safe integers (no back end holds it)', () =>
    spec
      .given(availableShare())
      .when(resize('extend', 2 ** 53))
      .thenThrows('invalid', /integer/));
  it('refuses to extend a share that is not available', () =>
    spec
      .given(availableShare().slice(0, 2))
      .when(resize('extend', 5))
      .thenThrows(
        'invalid',
        /^Invalid share: Share s1 status must be 'available' to extend, but current status is: creating\.$/,
      ));
  it('shrinks within 0 < new < size', () => {
    spec
      .given(availableShare())
      .when(resize('shrink', 1))
      .then([requested('shrink', 1)]);
    spec.given(availableShare()).when(resize('shrink', 2)).thenThrows('invalid');
    spec
      .given(availableShare())
      .when(resize('shrink', 0))
      .thenThrows(
        'invalid',
        /^Invalid input received: New size for shrink must be less than current size and greater than 0 \(current: 2, new: 0\)\.$/,
      );
  });
  it('claims only an instance in the matching status', () =>
    spec
      .given([...availableShare(), requested('extend', 5)])
      .when({
        type: 'StartDriverOperation',
        instanceId: 'i1',
        operation: 'shrink_share',
        commandId: 'c-x',
        host: 'node1@b1#p1',
        now: later,
      })
      .thenNothing());
  it('takes the new size when the driver resized', () => {
    const history = [...availableShare(), requested('extend', 5), claimed('extend_share', 'c-ext')];
    const resized: ShareEvent = {
      type: 'ShareInstanceResized',
      data: { instanceId: 'i1', commandId: 'c-ext', newSize: 5, resizedAt: later },
    };
    spec
      .given(history)
      .when({
        type: 'CompleteShareInstanceResize',
        instanceId: 'i1',
        commandId: 'c-ext',
        now: later,
      })
      .then([resized]);
    const state = activeShareAfter([...history, resized]);
    expect(state.size).toBe(5);
    expect(state.instances[0]?.status).toBe('available');
  });
  it('ends a failed extend in extending_error, a data-loss shrink back in available', () => {
    const failed = (commandId: string, possibleDataLoss: boolean): ShareEvent => ({
      type: 'ShareInstanceResizeFailed',
      data: { instanceId: 'i1', commandId, message: 'no', possibleDataLoss, failedAt: later },
    });
    const extend = activeShareAfter([
      ...availableShare(),
      requested('extend', 5),
      claimed('extend_share', 'c-ext'),
      failed('c-ext', false),
    ]);
    expect([extend.instances[0]?.status, extend.size]).toEqual(['extending_error', 2]);
    const shrinkLoss = activeShareAfter([
      ...availableShare(),
      requested('shrink', 1),
      claimed('shrink_share', 'c-shr'),
      failed('c-shr', true),
    ]);
    expect([shrinkLoss.instances[0]?.status, shrinkLoss.size]).toEqual(['available', 2]);
    const shrinkError = activeShareAfter([
      ...availableShare(),
      requested('shrink', 1),
      claimed('shrink_share', 'c-shr'),
      failed('c-shr', false),
    ]);
    expect(shrinkError.instances[0]?.status).toBe('shrinking_error');
  });
});
