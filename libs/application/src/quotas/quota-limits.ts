import { Inject, Injectable } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { quotaDecider, quotaStream, type QuotaCommand, type QuotaResource } from '#hawser/domain';
import { READ_YOUR_WRITES, type ReadYourWrites } from '#hawser/read-models';
import { CommandHandler as Commands } from '../command-handler.js';
import type { Requester } from '../requester.js';

/** PUT /quota-sets/{project} (admin): the named limits; `force` lets one go below the usage. */
export class SetQuotaLimits extends Command<void> {
  constructor(
    readonly projectId: string,
    readonly limits: Partial<Record<QuotaResource, number>>,
    readonly force: boolean,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** DELETE /quota-sets/{project} (admin): the project's limits back to the defaults. */
export class ResetQuotaLimits extends Command<void> {
  constructor(
    readonly projectId: string,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** One command on the project's quota stream, then a wait until the quotas read model shows it. */
@Injectable()
abstract class QuotaLimitsHandler {
  constructor(
    private readonly commands: Commands,
    @Inject(READ_YOUR_WRITES) private readonly readYourWrites: ReadYourWrites,
  ) {}

  protected async run(projectId: string, command: QuotaCommand, requester: Requester) {
    const result = await this.commands.handle(
      quotaDecider,
      quotaStream(projectId),
      command,
      requester.commandContext(),
    );
    await this.readYourWrites.waitFor(result.position);
  }
}

@CommandHandler(SetQuotaLimits)
export class SetQuotaLimitsHandler
  extends QuotaLimitsHandler
  implements ICommandHandler<SetQuotaLimits, void>
{
  async execute({ projectId, limits, force, requester }: SetQuotaLimits): Promise<void> {
    await this.run(
      projectId,
      { type: 'SetQuotaLimits', projectId, limits, force, now: new Date().toISOString() },
      requester,
    );
  }
}

@CommandHandler(ResetQuotaLimits)
export class ResetQuotaLimitsHandler
  extends QuotaLimitsHandler
  implements ICommandHandler<ResetQuotaLimits, void>
{
  async execute({ projectId, requester }: ResetQuotaLimits): Promise<void> {
    await this.run(
      projectId,
      { type: 'ResetQuotaLimits', projectId, now: new Date().toISOString() },
      requester,
    );
  }
}
