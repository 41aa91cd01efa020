import type { SchedulerHints, ShareEvent } from '#hawser/domain';
import { later, shareRequested } from '../../../domain/src/share/test-support/share-history.js';
import { recordedShareEvent, workflowSpec } from '../test-support/workflow-spec.js';
import { affinityLinksWorkflow, type AffinityLinkOutput } from './affinity-links.workflow.js';

const spec = workflowSpec(affinityLinksWorkflow);
const N = 'eeeeeeee-0000-4000-8000-000000000000';
const A = 'aaaaaaaa-0000-4000-8000-000000000000';
const B = 'bbbbbbbb-0000-4000-8000-000000000000';
const C = 'cccccccc-0000-4000-8000-000000000000';

/** Share N requested with `hints`, its metadata listing `metadata`. */
const requested = (hints: SchedulerHints | null, metadata: Record<string, string>): ShareEvent => {
  const event = shareRequested();
  if (event.type !== 'ShareRequested') throw new Error('shareRequested() is a ShareRequested');
  return {
    type: 'ShareRequested',
    data: { ...event.data, shareId: N, schedulerHints: hints, metadata },
  };
};
const deleted: ShareEvent = { type: 'ShareDeleted', data: { shareId: N, deletedAt: later } };
const linkTo = (other: string, hint: 'sameHost' | 'differentHost'): AffinityLinkOutput => ({
  shareId: other,
  command: { type: 'LinkAffinity', hint, shareId: N },
  purpose: `link:${hint}:${other}`,
  ifGone: {
    shareId: N,
    command: { type: 'UnlinkAffinity', hint, shareId: other },
    purpose: `unlink:${hint}:${other}`,
  },
});
const unlinkFrom = (other: string, hint: 'sameHost' | 'differentHost'): AffinityLinkOutput => ({
  shareId: other,
  command: { type: 'UnlinkAffinity', hint, shareId: N },
  purpose: `unlink:${hint}:${other}`,
});

describe('affinity links workflow', () => {
  it('when a share naming others is requested, then each share its metadata lists gets a link, or the new share drops it if gone', () => {
    const event = requested(
      { sameHost: [A], differentHost: [A, B, B] },
      { __affinity_same_host: A, __affinity_different_host: `${A},${B}` },
    );
    spec
      .given()
      .when(recordedShareEvent(N, 0, event))
      .then([linkTo(A, 'sameHost'), linkTo(A, 'differentHost'), linkTo(B, 'differentHost')]);
  });

  it("when a hint names a share its metadata does not list (another project's), then that share is not linked", () => {
    const event = requested({ differentHost: [A, C] }, { __affinity_different_host: A });
    spec
      .given()
      .when(recordedShareEvent(N, 0, event))
      .then([linkTo(A, 'differentHost')]);
  });

  it('when a share without hints is requested, then nothing is linked and no history is read', () => {
    const input = recordedShareEvent(N, 0, requested(null, {}));
    expect(affinityLinksWorkflow.readsHistory(input)).toBe(false);
    spec.given().when(input).then([]);
  });

  it('given a deleted share that listed others and named one since edited away, when its deletion is handled, then every one loses its id', () => {
    const history = [
      requested({ differentHost: [C] }, { __affinity_same_host: `${A},${B}` }),
      deleted,
    ];
    spec
      .given(...history)
      .when(recordedShareEvent(N, 1, deleted))
      .then([unlinkFrom(A, 'sameHost'), unlinkFrom(B, 'sameHost'), unlinkFrom(C, 'differentHost')]);
  });
});
