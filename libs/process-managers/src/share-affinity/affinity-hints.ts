import type { CommandHandler } from '#hawser/application';
import {
  affinityHintsOf,
  shareDecider,
  shareStream,
  type SchedulerHints,
  type ShareState,
  type ActiveShare,
} from '#hawser/domain';
import {
  checkAffinity,
  NO_AFFINITY,
  type AffinityConstraint,
  type AffinityVerdict,
  type ReferencedShare,
} from '#hawser/scheduler';

/** A share as its stream folds now; an unknown id folds to the initial (absent) state. */
export type ShareLoader = (shareId: string) => Promise<ShareState>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Reads shares from the log, not a read model: placements decided a moment ago count. */
export const shareLoaderOf =
  (commands: CommandHandler): ShareLoader =>
  async (shareId) =>
    (await commands.load(shareDecider, shareStream(shareId))).state;

/**
 * The hint check's first half, for every placement that honours hints (a new share, a replica,
 * a migration's destination): the shares a hint names, resolved to the pool hosts of all their
 * instances. A share that does not exist (any more) resolves to no host, which the filters and
 * `checkAffinity` of `#hawser/scheduler` turn into "No valid host", as Manila does.
 */
export class AffinityHints {
  constructor(private readonly loadShare: ShareLoader) {}

  /** The request's own hints (share create). */
  async resolve(hints: SchedulerHints | null): Promise<AffinityConstraint> {
    if (!hints) return NO_AFFINITY;
    return {
      sameHost: hints.sameHost?.length ? await this.referenced(hints.sameHost) : null,
      differentHost: hints.differentHost?.length
        ? await this.referenced(hints.differentHost)
        : null,
    };
  }

  /**
   * The hints a share's metadata records now, links added by later shares included (Manila's
   * rebuild for replicas and migrations, reference 7.4). `override` is the admin's way past
   * them (a replica on an explicit host, a forced migration): no constraint at all.
   */
  async ofShare(
    share: Pick<ActiveShare, 'metadata'>,
    options: { readonly override?: boolean } = {},
  ): Promise<AffinityConstraint> {
    if (options.override) return NO_AFFINITY;
    return this.resolve(affinityHintsOf(share.metadata));
  }

  /**
   * Whether one pool may take the share (a migration's destination, Manila's
   * `host_passes_filters` for the two affinity filters); `override` is the admin's forced move.
   */
  async allowsHost(
    share: Pick<ActiveShare, 'metadata'>,
    host: string,
    options: { readonly override?: boolean } = {},
  ): Promise<AffinityVerdict> {
    return checkAffinity(host, await this.ofShare(share, options));
  }

  private async referenced(ids: readonly string[]): Promise<ReferencedShare[]> {
    const shares: ReferencedShare[] = [];
    for (const shareId of ids) {
      const state = UUID.test(shareId) ? await this.loadShare(shareId) : undefined;
      const instanceHosts = state?.kind === 'active' ? state.instances.map((i) => i.host) : [];
      shares.push({ shareId, instanceHosts });
    }
    return shares;
  }
}
