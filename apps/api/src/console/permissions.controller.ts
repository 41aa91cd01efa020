import { Controller, Get, Inject, Req } from '@nestjs/common';
import type { Request } from 'express';
import type { PolicyHolder } from '#hawser/policy';
import { requireAuth } from '../http/policy.js';
import { contextOf } from '../http/request-context.js';
import { Policy } from '../policy/route-policy.decorators.js';
import { policyOf } from '../policy/request-policy.js';
import { POLICY_HOLDER } from '../policy/policy.tokens.js';

/**
 * GET /hawser/v1/permissions: who the caller is and, for every rule of the policy in force
 * (defaults and overrides), whether the caller passes it on their own project. The console
 * offers a control only when its rule passes here; the route itself still checks the rule.
 */
@Controller('hawser/v1/permissions')
export class PermissionsController {
  constructor(@Inject(POLICY_HOLDER) private readonly policy: PolicyHolder) {}

  @Get()
  @Policy('hawser:permissions:get')
  show(@Req() req: Request) {
    const ctx = contextOf(req);
    const auth = requireAuth(ctx);
    const policy = policyOf(ctx);
    const rules = Object.fromEntries(
      this.policy.current.rules().map((rule) => [rule.name, policy.allows(rule.name)]),
    );
    return {
      permissions: {
        user_id: auth.userId,
        project_id: auth.projectId,
        roles: [...auth.roles],
        is_admin: auth.isAdmin,
        rules,
      },
    };
  }
}
