import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  quotaClassDecider,
  quotaClassStream,
  quotaDecider,
  quotaStream,
  type QuotaLimitSet,
  type QuotaScope,
} from '#hawser/domain';
import { READ_YOUR_WRITES, type ReadYourWrites } from '#hawser/read-models';
import { CommandHandler as Commands } from '../command-handler.js';
import type { Requester } from '../requester.js';
import { QuotaDefaults } from './quota-defaults.js';

/**
 * PUT /quota-sets/{project} (admin): the named limits of the project, or of a user or share type
 * in it; `force` lets one go below the usage or a user's or type's above the project's.
 */
export class SetQuotaLimits extends Command<void> {
  constructor(
    readonly projectId: string,
    readonly scope: QuotaScope,
    readonly limits: QuotaLimitSet,
    readonly force: boolean,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** DELETE /quota-sets/{project} (admin): a scope's limits back to the wider scope's. */
export class ResetQuotaLimits extends Command<void> {
  constructor(
    readonly projectId: string,
    readonly scope: QuotaScope,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** PUT /quota-class-sets/{class} (admin): a quota class's limits. */
export class SetQuotaClassLimits extends Command<void> {
  constructor(
    readonly className: string,
    readonly limits: QuotaLimitSet,
    readonly requester: Requester,
  ) {
    super();
  }
}

@CommandHandler(SetQuotaLimits)
export class SetQuotaLimitsHandler implements ICommandHandler<SetQuotaLimits, void> {
  constructor(
    private readonly commands: Commands,
    private readonly defaults: QuotaDefaults,
    @Inject(READ_YOUR_WRITES) private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ projectId, scope, limits, force, requester }: SetQuotaLimits): Promise<void> {
    const command = {
      type: 'SetQuotaLimits' as const,
      projectId,
      scope,
      limits,
      force,
      defaults: await this.defaults.current(),
      now: new Date().toISOString(),
    };
    const result = await this.commands.handle(
      quotaDecider,
      quotaStream(projectId),
      command,
      requester.commandContext(),
    );
    await this.readYourWrites.waitFor(result.position);
  }
}

@CommandHandler(ResetQuotaLimits)
export class ResetQuotaLimitsHandler implements ICommandHandler<ResetQuotaLimits, void> {
  constructor(
    private readonly commands: Commands,
    @Inject(READ_YOUR_WRITES) private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ projectId, scope, requester }: ResetQuotaLimits): Promise<void> {
    const now = new Date().toISOString();
    const result = await this.commands.handle(
      quotaDecider,
      quotaStream(projectId),
      { type: 'ResetQuotaLimits', projectId, scope, now },
      requester.commandContext(),
    );
    await this.readYourWrites.waitFor(result.position);
  }
}

/** Read back through the class's own stream (QuotaDefaults), so no read model is waited for. */
@CommandHandler(SetQuotaClassLimits)
export class SetQuotaClassLimitsHandler implements ICommandHandler<SetQuotaClassLimits, void> {
  constructor(private readonly commands: Commands) {}

  async execute({ className, limits, requester }: SetQuotaClassLimits): Promise<void> {
    const now = new Date().toISOString();
    await this.commands.handle(
      quotaClassDecider,
      quotaClassStream(className),
      { type: 'SetQuotaClassLimits', className, limits, now },
      requester.commandContext(),
    );
  }
}
