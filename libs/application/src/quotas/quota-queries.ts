import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import {
  effectiveLimits,
  initialQuotaState,
  quotaUsage,
  type QuotaLimits,
  type QuotaResource,
} from '#hawser/domain';
import { QUOTAS, type QuotaDocument } from '#hawser/projections';
import { DOCUMENT_STORE, type DocumentStore } from '#hawser/read-models';
import { USE_CASE_SETTINGS, type UseCaseSettings } from '../use-case-settings.js';

export interface QuotaFigures {
  readonly limits: QuotaLimits;
  readonly inUse: Readonly<Record<QuotaResource, number>>;
}

/** A project's limits in force and its usage, from the quotas read model. */
export class ShowQuota extends Query<QuotaFigures> {
  constructor(readonly projectId: string) {
    super();
  }
}

/** The default limits (a project's until it has its own). */
export class ShowQuotaDefaults extends Query<QuotaLimits> {}

@QueryHandler(ShowQuota)
export class ShowQuotaHandler implements IQueryHandler<ShowQuota, QuotaFigures> {
  constructor(
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    @Inject(USE_CASE_SETTINGS) private readonly settings: UseCaseSettings,
  ) {}

  async execute({ projectId }: ShowQuota): Promise<QuotaFigures> {
    const doc = await this.documents.get<QuotaDocument>(QUOTAS, projectId);
    const state = doc?.state ?? initialQuotaState();
    return {
      limits: effectiveLimits(state, this.settings.quotaDefaults),
      inUse: quotaUsage(state),
    };
  }
}

@QueryHandler(ShowQuotaDefaults)
export class ShowQuotaDefaultsHandler implements IQueryHandler<ShowQuotaDefaults, QuotaLimits> {
  constructor(@Inject(USE_CASE_SETTINGS) private readonly settings: UseCaseSettings) {}

  execute(): Promise<QuotaLimits> {
    return Promise.resolve(this.settings.quotaDefaults);
  }
}
