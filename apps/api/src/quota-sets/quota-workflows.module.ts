import { Module } from '@nestjs/common';
import { QuotaReleaseWorkflow } from './quota-release.workflow.js';

/** The quota's process managers; imported by the process that owns the quota API. */
@Module({ providers: [QuotaReleaseWorkflow] })
export class QuotaWorkflowsModule {}
