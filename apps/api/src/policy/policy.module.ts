import {
  Inject,
  Injectable,
  Logger,
  Module,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PolicyHolder } from '#hawser/policy';
import { HAWSER_CONFIG, type HawserConfig } from '#hawser/platform';
import { PolicyGuard } from './policy.guard.js';
import { POLICY_HOLDER } from './policy.tokens.js';

/** The settings' policy: the defaults, and HAWSER_POLICY_FILE's overrides when set. */
export const policyHolderFor = (config: HawserConfig): PolicyHolder =>
  new PolicyHolder({
    ...(config.policyFile !== undefined && { file: config.policyFile }),
    enforceNewDefaults: config.policyEnforceNewDefaults,
  });

/**
 * Reloads the policy file on SIGHUP, as oslo.policy services do. A file that does not load
 * is logged and the policy in force stays.
 */
@Injectable()
class PolicyReloader implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('policy');
  private readonly reload = () => {
    const result = this.policy.reload();
    if (result.ok) {
      this.logger.log('Policy reloaded');
      for (const warning of result.warnings) this.logger.warn(warning);
    } else
      this.logger.error(`Policy not reloaded, the previous one stays: ${result.error.message}`);
  };

  constructor(@Inject(POLICY_HOLDER) private readonly policy: PolicyHolder) {}

  onModuleInit(): void {
    process.on('SIGHUP', this.reload);
  }

  onApplicationShutdown(): void {
    process.off('SIGHUP', this.reload);
  }
}

/** The policy in force and the guard that enforces it on every route, action and field. */
@Module({
  providers: [
    { provide: POLICY_HOLDER, useFactory: policyHolderFor, inject: [HAWSER_CONFIG] },
    PolicyReloader,
    { provide: APP_GUARD, useClass: PolicyGuard },
  ],
  exports: [POLICY_HOLDER],
})
export class PolicyModule {}
