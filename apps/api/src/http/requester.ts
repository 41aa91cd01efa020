import type { Reader, Requester } from '#hawser/application';
import type { ShareRecord } from '#hawser/projections';
import { policyOf } from '../policy/request-policy.js';
import { commandContextOf } from './command-context.js';
import { requireAuth } from './policy.js';
import type { RequestContext } from './request-context.js';

/** The caller and microversion of a request, as a query carries them. */
export const readerOf = (ctx: RequestContext): Reader => ({
  caller: requireAuth(ctx),
  version: ctx.microversion,
  ...(ctx.resource?.kind === 'share' && { checkedShare: ctx.resource.document as ShareRecord }),
});

/** The caller, microversion, policy and command ids of a request, as a command carries them. */
export const requesterOf = (ctx: RequestContext): Requester => ({
  ...readerOf(ctx),
  // Read when a use case asks: the policy guard has set it by then.
  get policy() {
    return policyOf(ctx);
  },
  commandContext: () => commandContextOf(ctx),
});
