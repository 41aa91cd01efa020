import { Module } from '@nestjs/common';
import { ProcessManagerHosting } from '../workflows/process-manager-hosting.js';
import { QuotaReleaseWorkflow } from './quota-release.workflow.js';
import { ReservationExpiryWorkflow } from './reservation-expiry.workflow.js';

/** The quota's process managers; imported by the process that owns the quota API. */
@Module({ providers: [ProcessManagerHosting, QuotaReleaseWorkflow, ReservationExpiryWorkflow] })
export class QuotaWorkflowsModule {}
