import type { Projection } from '#hawser/read-models';
import { backendsProjection } from './backends/backends.projection.js';
import { messagesProjection } from './messages/messages.projection.js';
import { quotasProjection } from './quotas/quotas.projection.js';
import { shareTypesProjection } from './share-types/share-types.projection.js';
import { sharesProjection } from './shares/shares.projection.js';

/** Every read model the API serves, in no particular order (each has its own checkpoint). */
export const ALL_PROJECTIONS: readonly Projection[] = [
  sharesProjection,
  shareTypesProjection,
  backendsProjection,
  quotasProjection,
  messagesProjection,
];
