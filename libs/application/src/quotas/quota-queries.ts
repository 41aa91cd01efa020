import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import {
  effectiveLimits,
  fullUsage,
  initialQuotaState,
  typeLimits,
  upcastQuotaState,
  userLimits,
  type QuotaLimits,
  type QuotaResource,
  type QuotaScope,
  type QuotaState,
} from '#hawser/domain';
import { QUOTAS, type QuotaDocument } from '#hawser/projections';
import { DOCUMENT_STORE, type DocumentStore } from '#hawser/read-models';
import { QuotaDefaults } from './quota-defaults.js';

export interface QuotaFigures {
  readonly limits: QuotaLimits;
  readonly inUse: Readonly<Record<QuotaResource, number>>;
}

/**
 * The limits in force and the usage of a project, or of a user or share type in it, from the
 * quotas read model.
 */
export class ShowQuota extends Query<QuotaFigures> {
  constructor(
    readonly projectId: string,
    readonly scope: QuotaScope = { kind: 'project' },
  ) {
    super();
  }
}

/** The default limits (a project's until it has its own): the `default` class's. */
export class ShowQuotaDefaults extends Query<QuotaLimits> {}

/** A quota class's limits (its own, then the configured defaults). */
export class ShowQuotaClass extends Query<QuotaLimits> {
  constructor(readonly className: string) {
    super();
  }
}

const figuresOf = (state: QuotaState, scope: QuotaScope, defaults: QuotaLimits): QuotaFigures => {
  switch (scope.kind) {
    case 'user':
      return {
        limits: userLimits(state, scope.userId, defaults),
        inUse: fullUsage(state.userUsage[scope.userId] ?? {}),
      };
    case 'share_type':
      return {
        limits: typeLimits(state, scope.shareTypeId, defaults),
        inUse: fullUsage(state.typeUsage[scope.shareTypeId] ?? {}),
      };
    case 'project':
      return { limits: effectiveLimits(state, defaults), inUse: fullUsage(state.usage) };
  }
};

@QueryHandler(ShowQuota)
export class ShowQuotaHandler implements IQueryHandler<ShowQuota, QuotaFigures> {
  constructor(
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    private readonly defaults: QuotaDefaults,
  ) {}

  async execute({ projectId, scope }: ShowQuota): Promise<QuotaFigures> {
    const doc = await this.documents.get<QuotaDocument>(QUOTAS, projectId);
    const state = doc ? upcastQuotaState(doc.state) : initialQuotaState();
    return figuresOf(state, scope, await this.defaults.current());
  }
}

@QueryHandler(ShowQuotaDefaults)
export class ShowQuotaDefaultsHandler implements IQueryHandler<ShowQuotaDefaults, QuotaLimits> {
  constructor(private readonly defaults: QuotaDefaults) {}

  execute(): Promise<QuotaLimits> {
    return this.defaults.current();
  }
}

@QueryHandler(ShowQuotaClass)
export class ShowQuotaClassHandler implements IQueryHandler<ShowQuotaClass, QuotaLimits> {
  constructor(private readonly defaults: QuotaDefaults) {}

  execute({ className }: ShowQuotaClass): Promise<QuotaLimits> {
    return this.defaults.ofClass(className);
  }
}
