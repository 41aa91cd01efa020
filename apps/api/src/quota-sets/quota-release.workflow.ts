import { Injectable } from '@nestjs/common';
import { CommandHandler } from '#hawser/application';
import { quotaReleaseProcessManager } from '#hawser/process-managers';
import { ProcessManagerHost } from '../workflows/process-manager-host.js';
import { ProcessManagerHosting } from '../workflows/process-manager-hosting.js';

/** Runs the quota-release process manager in the process that serves the quota API. */
@Injectable()
export class QuotaReleaseWorkflow extends ProcessManagerHost {
  constructor(hosting: ProcessManagerHosting, commands: CommandHandler) {
    super(hosting, [quotaReleaseProcessManager(hosting.events, commands)]);
  }
}
