import { Controller, Get, Inject, Param, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { shareInstanceView } from '#hawser/api-contracts';
import {
  findShareInstances,
  getShareInstance,
  instancesOfShare,
  type ShareInstanceDocument,
} from '#hawser/projections';
import type { DocumentStore } from '#hawser/read-models';
import { DOCUMENT_STORE } from '#hawser/platform';
import { notFoundError } from '../http/manila-error.js';
import { atLeast, contextOf, type RequestContext } from '../http/request-context.js';
import { viewContextOf } from '../http/view-context.js';
import { nextPageLink } from '../http/next-page-link.js';
import { pageOf } from '#hawser/application';
import { fromParam, share, shareInstance } from '../policy/policy-targets.js';
import { Policy, Since } from '../policy/route-policy.decorators.js';

/** Export-location filters of the instance listing (2.35+): an instance with such a location. */
const matchesExportLocation = (
  doc: ShareInstanceDocument,
  query: Readonly<Record<string, string>>,
): boolean =>
  (query.export_location_id === undefined ||
    doc.export_locations.some((l) => l.id === query.export_location_id)) &&
  (query.export_location_path === undefined ||
    doc.export_locations.some((l) => l.path === query.export_location_path));

/**
 * Manila's share instances (2.3+, admin only; reference 1.2 and 3.4.3), from the
 * share-instances read model, a page at a time with `limit` and `offset`. Their actions are
 * in ShareInstanceActionsController.
 */
@Controller('v2')
@Since('2.3')
export class ShareInstancesController {
  constructor(@Inject(DOCUMENT_STORE) private readonly documents: DocumentStore) {}

  @Get('share_instances')
  @Policy('share_instance:index')
  async list(@Req() req: Request, @Query() query: Record<string, string>) {
    const ctx = contextOf(req);
    const docs = await findShareInstances(
      this.documents,
      {},
      {
        sort: [
          ['created_at', 1],
          ['id', 1],
        ],
      },
    );
    const filtered = atLeast(ctx.microversion, '2.35')
      ? docs.filter((d) => matchesExportLocation(d, query))
      : docs;
    return this.page(req, ctx, query, filtered);
  }

  @Get('share_instances/:id')
  @Policy('share_instance:show', shareInstance(fromParam('id')))
  async show(@Req() req: Request, @Param('id') id: string) {
    const ctx = contextOf(req);
    const doc = await getShareInstance(this.documents, id);
    if (!doc) throw notFoundError(`Share instance ${id} could not be found.`);
    return { share_instance: shareInstanceView(doc, viewContextOf(ctx)) };
  }

  @Get('shares/:shareId/instances')
  @Policy('share_instance:index', share(fromParam('shareId')))
  async ofShare(
    @Req() req: Request,
    @Param('shareId') shareId: string,
    @Query() query: Record<string, string>,
  ) {
    const ctx = contextOf(req);
    const docs = await instancesOfShare(this.documents, shareId);
    if (!docs) throw notFoundError(`Share ${shareId} could not be found.`);
    return this.page(req, ctx, query, docs);
  }

  /** One page by limit and offset; `share_instances_links` points on when more follow. */
  private page(
    req: Request,
    ctx: RequestContext,
    query: Record<string, string>,
    docs: readonly ShareInstanceDocument[],
  ) {
    const { page, more } = pageOf(docs, query);
    const body: Record<string, unknown> = {
      share_instances: page.map((d) => shareInstanceView(d, viewContextOf(ctx))),
    };
    if (more) {
      const offset = Number(query.offset ?? 0) + page.length;
      const params = new URLSearchParams({ ...query, offset: `${offset}` });
      body.share_instances_links = nextPageLink(req, ctx, params);
    }
    return body;
  }
}
