import type { AffinityHint } from './share-affinity.js';

/**
 * The symmetric side of a hint (reference 7.2, 7.5): another share named this one in its hint
 * (link), or that share is gone (unlink). Sent by the affinity-links process manager.
 */
export type AffinityCommand =
  | { type: 'LinkAffinity'; hint: AffinityHint; shareId: string; now: string }
  | { type: 'UnlinkAffinity'; hint: AffinityHint; shareId: string; now: string };
