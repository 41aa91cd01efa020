import { Injectable } from '@nestjs/common';
import { CommandHandler } from '#hawser/application';
import { affinityLinksProcessManager } from '#hawser/process-managers';
import { ProcessManagerHost } from '../workflows/process-manager-host.js';
import { ProcessManagerHosting } from '../workflows/process-manager-hosting.js';

/** Keeps the affinity metadata symmetric, in the process that serves the shares API. */
@Injectable()
export class AffinityLinksWorkflow extends ProcessManagerHost {
  constructor(hosting: ProcessManagerHosting, commands: CommandHandler) {
    super(hosting, [affinityLinksProcessManager(commands)]);
  }
}
