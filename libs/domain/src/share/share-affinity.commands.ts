import type { AffinityHint } from './share-affinity.js';

/**
 * The symmetric side of a hint (reference 7.2, 7.5): another share named this one in its hint
 * (link), or that share is gone (unlink). Sent by the affinity-links process manager. A link
 * names the project of the share that asks for it: only a share of the same project is linked.
 */
export type AffinityCommand =
  | { type: 'LinkAffinity'; hint: AffinityHint; shareId: string; projectId: string; now: string }
  | { type: 'UnlinkAffinity'; hint: AffinityHint; shareId: string; now: string };
