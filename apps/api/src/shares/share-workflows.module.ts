import { Module } from '@nestjs/common';
import { ProcessManagerHosting } from '../workflows/process-manager-hosting.js';
import { AffinityLinksWorkflow } from './affinity-links.workflow.js';
import { RecycleBinExpiryWorkflow } from './recycle-bin-expiry.workflow.js';

/** The shares' process managers; imported by the process that owns the shares API. */
@Module({ providers: [ProcessManagerHosting, AffinityLinksWorkflow, RecycleBinExpiryWorkflow] })
export class ShareWorkflowsModule {}
