import { Inject, Injectable } from '@nestjs/common';
import {
  classLimits,
  DEFAULT_QUOTA_CLASS,
  quotaClassDecider,
  quotaClassStream,
  type QuotaLimits,
} from '#hawser/domain';
import { CommandHandler } from '../command-handler.js';
import { USE_CASE_SETTINGS, type UseCaseSettings } from '../use-case-settings.js';

/**
 * The defaults in force: the configured ones (HAWSER_QUOTA_<RESOURCE>) under what an admin set
 * for the `default` quota class (Manila's quota_class_get_default). The class's stream is a
 * handful of events, folded from the command handler's cache.
 */
@Injectable()
export class QuotaDefaults {
  constructor(
    private readonly commands: CommandHandler,
    @Inject(USE_CASE_SETTINGS) private readonly settings: UseCaseSettings,
  ) {}

  async current(): Promise<QuotaLimits> {
    return this.ofClass(DEFAULT_QUOTA_CLASS);
  }

  /** A class's limits: its own, then the configured defaults (Manila's get_class_quotas). */
  async ofClass(className: string): Promise<QuotaLimits> {
    const { state } = await this.commands.load(quotaClassDecider, quotaClassStream(className));
    return classLimits(state, this.settings.quotaDefaults);
  }
}
