import { Controller, Get, Inject, Param, Req } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ShowShare } from '#hawser/application';
import type { Request } from 'express';
import {
  exportingInstances,
  exportLocationDetailView,
  exportLocationView,
  visibleExportLocations,
  type ViewContext,
} from '#hawser/api-contracts';
import {
  getShareInstance,
  instancesOfShare,
  type ShareInstanceDocument,
} from '#hawser/projections';
import type { DocumentStore } from '#hawser/read-models';
import { DOCUMENT_STORE } from '#hawser/platform';
import { forbiddenError, notFoundError } from '../http/manila-error.js';
import { contextOf } from '../http/request-context.js';
import { readerOf } from '../http/requester.js';
import { viewContextOf } from '../http/view-context.js';
import { fromParam, share, shareInstance } from '../policy/policy-targets.js';
import { policyRefusal } from '../policy/request-policy.js';
import { Policy, Since } from '../policy/route-policy.decorators.js';

/**
 * Manila checks `share:get` on a private share before listing or showing its locations, so
 * another project is refused (403) where `GET /shares/{id}` answers 404 (reference 10.12).
 */
const theShare = share(fromParam('id'), () => policyRefusal('share:get'));
const theInstance = shareInstance(fromParam('id'));

const located = (instances: readonly ShareInstanceDocument[], locationId: string) => {
  for (const instance of instances) {
    const location = instance.export_locations.find((l) => l.id === locationId);
    if (location) return { instance, location };
  }
  return undefined;
};

/**
 * Export locations of a share (2.9+, reference 1.4 and 3.5) and of a share instance (admin):
 * the summary in lists, the detail when shown.
 */
@Controller('v2')
@Since('2.9')
export class ExportLocationsController {
  constructor(
    private readonly queries: QueryBus,
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
  ) {}

  @Get('shares/:id/export_locations')
  @Policy('share_export_location:index', theShare)
  async ofShare(@Req() req: Request, @Param('id') id: string) {
    const { view, instances } = await this.shareInstances(req, id);
    const locations = instances.flatMap((i) => i.export_locations);
    return {
      export_locations: visibleExportLocations(locations, view).map((l) =>
        exportLocationView(l, view),
      ),
    };
  }

  /** A non-admin asking for an admin-only location is refused (403), as in Manila. */
  @Get('shares/:id/export_locations/:locationId')
  @Policy('share_export_location:show', theShare)
  async oneOfShare(
    @Req() req: Request,
    @Param('id') id: string,
    @Param('locationId') locationId: string,
  ) {
    const { view, instances } = await this.shareInstances(req, id);
    const found = located(instances, locationId);
    if (!found) throw notFoundError(`Export location '${locationId}' not found.`);
    if (found.location.is_admin_only && !view.isAdmin) {
      throw forbiddenError('Access was denied to this resource.');
    }
    return { export_location: exportLocationDetailView(found.location, found.instance, view) };
  }

  @Get('share_instances/:id/export_locations')
  @Policy('share_instance_export_location:index', theInstance)
  async ofInstance(@Req() req: Request, @Param('id') id: string) {
    const { view, instance } = await this.instance(req, id);
    return { export_locations: instance.export_locations.map((l) => exportLocationView(l, view)) };
  }

  @Get('share_instances/:id/export_locations/:locationId')
  @Policy('share_instance_export_location:show', theInstance)
  async oneOfInstance(
    @Req() req: Request,
    @Param('id') id: string,
    @Param('locationId') locationId: string,
  ) {
    const { view, instance } = await this.instance(req, id);
    const location = instance.export_locations.find((l) => l.id === locationId);
    if (!location) throw notFoundError(`Export location ${locationId} could not be found.`);
    return { export_location: exportLocationDetailView(location, instance, view) };
  }

  private async shareInstances(req: Request, id: string) {
    const ctx = contextOf(req);
    const share = await this.queries.execute(new ShowShare(id, readerOf(ctx)));
    const view: ViewContext = viewContextOf(ctx);
    const instances = (await instancesOfShare(this.documents, share.id)) ?? [];
    return { view, instances: exportingInstances(instances, view) };
  }

  private async instance(req: Request, id: string) {
    const ctx = contextOf(req);
    const instance = await getShareInstance(this.documents, id);
    if (!instance) throw notFoundError(`Share instance '${id}' not found.`);
    return { view: viewContextOf(ctx), instance };
  }
}
