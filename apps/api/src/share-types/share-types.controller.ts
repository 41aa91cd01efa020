import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Put,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { CreateShareTypeDto, ExtraSpecsDto, shareTypeView, toBoolean } from '#hawser/api-contracts';
import type { ShareTypeDocument } from '#hawser/projections';
import { badRequest, notFoundError } from '../http/manila-error.js';
import { requireAuth } from '../http/policy.js';
import { atLeast, contextOf, type RequestContext } from '../http/request-context.js';
import { isJsonObject, requireBodyKey, validateBody } from '../http/validate-body.js';
import { viewContextOf } from '../http/view-context.js';
import { parseDictFilter } from '../http/list-query.js';
import { matchesExtraSpecs } from './extra-specs-filter.js';
import { withBooleanSpecsAsText } from './extra-specs-input.js';
import { runManilaAction, type ActionCall } from '../policy/manila-actions.js';
import {
  ManilaAction,
  ManilaActions,
  Policy,
  Since,
  Until,
} from '../policy/route-policy.decorators.js';
import { ShareTypesService } from './share-types.service.js';

/** A spec the type has itself: `constructor` or `__proto__` are keys like any other, and absent. */
const ownSpec = (doc: ShareTypeDocument, key: string): string | undefined =>
  Object.hasOwn(doc.extra_specs, key) ? doc.extra_specs[key] : undefined;

/**
 * The `share_type` object of a create or update (`volume_type` when only that is given); as in
 * Manila, a body without one is a 400.
 */
const typePartOf = (body: unknown): Record<string, unknown> =>
  isJsonObject(body) && Object.hasOwn(body, 'volume_type') && !Object.hasOwn(body, 'share_type')
    ? requireBodyKey(body, 'volume_type', 400)
    : requireBodyKey(body, 'share_type', 400);

/** Manila's default project_id_regex. */
const PROJECT_ID = /^[0-9a-f-]+$/;

/** Manila's share types, extra specs and type access (reference 3.8). */
@Controller('v2/types')
export class ShareTypesController {
  constructor(private readonly types: ShareTypesService) {}

  private view(doc: ShareTypeDocument, ctx: RequestContext) {
    const view = shareTypeView(doc, viewContextOf(ctx), this.types.defaultShareTypeName);
    return { share_type: view, volume_type: view };
  }

  @Post()
  @HttpCode(200)
  @Policy('share_type:create')
  async create(@Req() req: Request, @Body() body: unknown) {
    const ctx = contextOf(req);
    const part = typePartOf(body);
    const dto = await validateBody(CreateShareTypeDto, withBooleanSpecsAsText(part), 'share type');
    const doc = await this.types.create(dto, ctx, !atLeast(ctx.microversion, '2.24'));
    return this.view(doc as ShareTypeDocument, ctx);
  }

  @Get()
  @Policy('share_type:index')
  async list(@Req() req: Request, @Query() query: Record<string, string>) {
    const ctx = contextOf(req);
    const auth = requireAuth(ctx);
    let extraSpecs: Record<string, string> | undefined;
    if (query.extra_specs) {
      if (!atLeast(ctx.microversion, '2.43')) {
        throw badRequest(
          "Filter by 'extra_specs' is not supported by this microversion. Use 2.43 or greater " +
            "microversion to be able to use filter search by 'extra_specs.",
        );
      }
      extraSpecs = parseDictFilter('extra_specs', query.extra_specs);
    }
    const docs = (await this.types.list(auth, query.is_public)).filter(
      (d) => extraSpecs === undefined || matchesExtraSpecs(d.extra_specs, extraSpecs),
    );
    const views = docs.map((d) => this.view(d, ctx).share_type);
    return { share_types: views, volume_types: views };
  }

  @Get('default')
  @Policy('share_type:default')
  async showDefault(@Req() req: Request) {
    const ctx = contextOf(req);
    const doc = await this.types.findDefault(requireAuth(ctx));
    if (!doc) throw notFoundError('Default share type not found.');
    return this.view(doc, ctx);
  }

  @Get(':id')
  @Policy('share_type:show')
  async show(@Req() req: Request, @Param('id') id: string) {
    const ctx = contextOf(req);
    return this.view(await this.types.find(id, requireAuth(ctx)), ctx);
  }

  @Put(':id')
  @Since('2.50')
  @Policy('share_type:update')
  async update(@Req() req: Request, @Param('id') id: string, @Body() body: unknown) {
    const ctx = contextOf(req);
    const auth = requireAuth(ctx);
    const part = typePartOf(body);
    const doc = await this.types.find(id, auth);
    const isPublic = part['share_type_access:is_public'];
    if (isPublic !== undefined && toBoolean(isPublic) === undefined) {
      throw badRequest('share_type_access:is_public must be a boolean.');
    }
    if (part.name !== undefined && typeof part.name !== 'string')
      throw badRequest('name must be a string.');
    if (
      part.description !== undefined &&
      part.description !== null &&
      typeof part.description !== 'string'
    ) {
      throw badRequest('description must be a string.');
    }
    const updated = await this.types.run(doc.id, ctx, {
      type: 'UpdateShareType',
      ...(part.name !== undefined && { name: part.name as string }),
      ...(part.description !== undefined && { description: part.description as string | null }),
      ...(isPublic !== undefined && { isPublic: toBoolean(isPublic) as boolean }),
      now: new Date().toISOString(),
    });
    return this.view(updated as ShareTypeDocument, ctx);
  }

  /** GET /types/{id}/share_type_access (os-share-type-access before 2.7): admin; public types 404. */
  @Get(':id/share_type_access')
  @Since('2.7')
  @Policy('share_type:list_project_access')
  async access(@Req() req: Request, @Param('id') id: string) {
    return this.listAccess(req, id);
  }

  @Get(':id/os-share-type-access')
  @Until('2.6')
  @Policy('share_type:list_project_access')
  async legacyAccess(@Req() req: Request, @Param('id') id: string) {
    return this.listAccess(req, id);
  }

  private async listAccess(req: Request, id: string) {
    const ctx = contextOf(req);
    const doc = await this.types.find(id, requireAuth(ctx));
    if (doc.is_public) {
      throw notFoundError(`Access list not available for public share types.`);
    }
    return {
      share_type_access: doc.projects.map((project) => ({
        share_type_id: doc.id,
        project_id: project,
      })),
    };
  }

  /** POST /types/{id}/action: addProjectAccess / removeProjectAccess `{project}` (admin). */
  @Post(':id/action')
  @HttpCode(202)
  @ManilaActions()
  action(@Req() req: Request, @Res({ passthrough: true }) res: Response, @Param('id') id: string) {
    return runManilaAction(this, contextOf(req), id, res);
  }

  @ManilaAction('addProjectAccess')
  @Policy('share_type:add_project_access')
  async addProjectAccess(call: ActionCall) {
    await this.changeAccess(call, 'AddShareTypeAccess');
  }

  @ManilaAction('removeProjectAccess')
  @Policy('share_type:remove_project_access')
  async removeProjectAccess(call: ActionCall) {
    await this.changeAccess(call, 'RemoveShareTypeAccess');
  }

  private async changeAccess(
    { id, argument, ctx, auth }: ActionCall,
    type: 'AddShareTypeAccess' | 'RemoveShareTypeAccess',
  ) {
    const project = (argument as { project?: unknown } | null)?.project;
    if (typeof project !== 'string' || !PROJECT_ID.test(project)) {
      throw badRequest('Project ID must be given as a string of hexadecimal digits and dashes.');
    }
    const doc = await this.types.find(id, auth);
    await this.types.run(doc.id, ctx, { type, projectId: project });
  }

  @Delete(':id')
  @HttpCode(202)
  @Policy('share_type:delete')
  async remove(@Req() req: Request, @Param('id') id: string) {
    const ctx = contextOf(req);
    await this.types.delete(id, ctx, requireAuth(ctx));
  }

  @Get(':id/extra_specs')
  @Policy('share_types_extra_spec:index')
  async extraSpecs(@Req() req: Request, @Param('id') id: string) {
    const ctx = contextOf(req);
    const doc = await this.types.find(id, requireAuth(ctx));
    return { extra_specs: doc.extra_specs };
  }

  @Get(':id/extra_specs/:key')
  @Policy('share_types_extra_spec:show')
  async extraSpec(@Req() req: Request, @Param('id') id: string, @Param('key') key: string) {
    const ctx = contextOf(req);
    const doc = await this.types.find(id, requireAuth(ctx));
    const value = ownSpec(doc, key);
    if (value === undefined) {
      throw notFoundError(`Share Type ${doc.id} has no extra specs with key ${key}.`);
    }
    return { [key]: value };
  }

  @Post(':id/extra_specs')
  @HttpCode(200)
  @Policy('share_types_extra_spec:create')
  async setExtraSpecs(@Req() req: Request, @Param('id') id: string, @Body() body: unknown) {
    const ctx = contextOf(req);
    const doc = await this.types.find(id, requireAuth(ctx));
    // Manila: a body without its extra_specs object is a plain 400.
    requireBodyKey(body, 'extra_specs', 400);
    const dto = await validateBody(ExtraSpecsDto, withBooleanSpecsAsText(body), 'extra specs');
    await this.types.run(doc.id, ctx, {
      type: 'SetShareTypeExtraSpecs',
      extraSpecs: dto.extra_specs,
      now: new Date().toISOString(),
    });
    return { extra_specs: dto.extra_specs };
  }

  @Delete(':id/extra_specs/:key')
  @HttpCode(202)
  @Policy('share_types_extra_spec:delete')
  async unsetExtraSpec(@Req() req: Request, @Param('id') id: string, @Param('key') key: string) {
    const ctx = contextOf(req);
    const doc = await this.types.find(id, requireAuth(ctx));
    if (ownSpec(doc, key) === undefined) {
      throw notFoundError(`Share Type ${doc.id} has no extra specs with key ${key}.`);
    }
    await this.types.run(doc.id, ctx, {
      type: 'UnsetShareTypeExtraSpec',
      key,
      now: new Date().toISOString(),
    });
  }
}
