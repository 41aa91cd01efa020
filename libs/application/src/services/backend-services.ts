import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { backendDecider, backendStream, hostBinaryNotFound } from '#hawser/domain';
import { READ_YOUR_WRITES, type ReadYourWrites } from '#hawser/read-models';
import { CommandHandler as Commands } from '../command-handler.js';
import type { Requester } from '../requester.js';

/** What `PUT /services/enable|disable` names: a service by its host and binary. */
export interface ServiceName {
  readonly host: string;
  readonly binary: string;
}

/**
 * PUT /services/disable or /services/enable (admin): a disabled back end receives no new
 * placements. Only a registered back end's manila-share service can be named.
 */
export class ChangeServiceStatus extends Command<void> {
  constructor(
    readonly service: ServiceName,
    readonly disabled: boolean,
    /** The disable's reason (Manila's 2.83 disabled_reason), kept, not shown before 2.83. */
    readonly reason: string | null,
    readonly requester: Requester,
  ) {
    super();
  }
}

@CommandHandler(ChangeServiceStatus)
export class ChangeServiceStatusHandler implements ICommandHandler<ChangeServiceStatus, void> {
  constructor(
    private readonly commands: Commands,
    @Inject(READ_YOUR_WRITES) private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ service, disabled, reason, requester }: ChangeServiceStatus): Promise<void> {
    if (service.binary !== 'manila-share') {
      throw hostBinaryNotFound(service.binary, service.host);
    }
    const now = new Date().toISOString();
    const result = await this.commands.handle(
      backendDecider,
      backendStream(service.host),
      disabled
        ? { type: 'DisableBackendService', backend: service.host, reason, now }
        : { type: 'EnableBackendService', backend: service.host, now },
      requester.commandContext(),
    );
    await this.readYourWrites.waitFor(result.position);
  }
}
