import { fold } from '../shared/decider.js';
import { deciderSpec } from '../test-support/decider-spec.js';
import { affinityHintsOf, affinityMetadataOf } from './share-affinity.js';
import { shareDecider } from './share.decide.js';
import type { ShareCommand } from './share.commands.js';
import type { ShareEvent, ShareRequested } from './share.events.js';
import { availableShare, later, shareRequested } from './test-support/share-history.js';

const spec = deciderSpec(shareDecider);
const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';

const metadataChanged = (set: Record<string, string>, unset: string[] = []): ShareEvent => ({
  type: 'ShareMetadataChanged',
  data: { set, unset, updatedAt: later },
});
const link = (hint: 'sameHost' | 'differentHost', shareId: string) => ({
  type: 'LinkAffinity' as const,
  hint,
  shareId,
  now: later,
});
const unlink = (hint: 'sameHost' | 'differentHost', shareId: string) => ({
  type: 'UnlinkAffinity' as const,
  hint,
  shareId,
  now: later,
});

describe('share decider: affinity links (reference 7.2, 7.5)', () => {
  it('starts the list of a share that has none', () =>
    spec
      .given(availableShare())
      .when(link('differentHost', A))
      .then([metadataChanged({ __affinity_different_host: A })]));

  it('appends to an existing list, in order', () =>
    spec
      .given([...availableShare(), metadataChanged({ __affinity_different_host: A })])
      .when(link('differentHost', B))
      .then([metadataChanged({ __affinity_different_host: `${A},${B}` })]));

  it('keeps the two hints apart', () =>
    spec
      .given([...availableShare(), metadataChanged({ __affinity_different_host: A })])
      .when(link('sameHost', B))
      .then([metadataChanged({ __affinity_same_host: B })]));

  it('decides nothing for an id already listed (a replayed link)', () =>
    spec
      .given([...availableShare(), metadataChanged({ __affinity_same_host: `${A},${B}` })])
      .when(link('sameHost', B))
      .thenNothing());

  it('removes one id and keeps the others', () =>
    spec
      .given([...availableShare(), metadataChanged({ __affinity_same_host: `${A},${B}` })])
      .when(unlink('sameHost', A))
      .then([metadataChanged({ __affinity_same_host: B })]));

  it('removes the key with its last id', () =>
    spec
      .given([...availableShare(), metadataChanged({ __affinity_same_host: A })])
      .when(unlink('sameHost', A))
      .then([metadataChanged({}, ['__affinity_same_host'])]));

  it('decides nothing for an id not listed (a replayed unlink)', () =>
    spec.given(availableShare()).when(unlink('differentHost', A)).thenNothing());

  it('refuses a deleted share', () =>
    spec
      .given([
        ...availableShare(),
        { type: 'ShareDeleted', data: { shareId: 's1', deletedAt: later } },
      ])
      .when(link('sameHost', A))
      .thenThrows('not_found'));

  it('lets a list grow past the 1023 characters of a metadata value', () => {
    const ids = Array.from(
      { length: 40 },
      (_, i) => `${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`,
    );
    const history = [
      ...availableShare(),
      metadataChanged({ __affinity_different_host: ids.join(',') }),
    ];
    const state = fold(shareDecider, history);
    expect(shareDecider.decide(link('differentHost', A), state)).toHaveLength(1);
  });

  it('accepts a long affinity list in a share request, not a long value under another key', () => {
    const long = Array.from({ length: 40 }, () => A).join(',');
    const request = (metadata: Record<string, string>): ShareCommand => ({
      type: 'RequestShare',
      ...(shareRequested().data as ShareRequested['data']),
      metadata,
    });
    expect(
      shareDecider.decide(request({ __affinity_same_host: long }), fold(shareDecider, [])),
    ).toHaveLength(1);
    spec
      .given([])
      .when(request({ other: long }))
      .thenThrows('invalid', /1023/);
  });

  it('reads hints back from metadata as Manila rebuilds them for replicas and migrations', () => {
    const metadata = affinityMetadataOf({ sameHost: [A], differentHost: [A, B] });
    expect(metadata).toEqual({ __affinity_same_host: A, __affinity_different_host: `${A},${B}` });
    expect(affinityHintsOf({ ...metadata, other: 'x' })).toEqual({
      sameHost: [A],
      differentHost: [A, B],
    });
    expect(affinityHintsOf({ other: 'x' })).toBeNull();
  });
});
