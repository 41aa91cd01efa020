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
  Inject,
} from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { Request, Response } from 'express';
import {
  ChangeShareTypeAccess,
  CreateShareType,
  DeleteShareType,
  ListShareTypes,
  parseDictFilter,
  ownSpec,
  SetShareTypeExtraSpecs,
  ShowDefaultShareType,
  ShowShareType,
  UnsetShareTypeExtraSpec,
  UpdateShareType,
} from '#hawser/application';
import {
  CreateShareTypeDto,
  ExtraSpecsDto,
  pythonText,
  shareTypeView,
} from '#hawser/api-contracts';
import { HAWSER_CONFIG, type HawserConfig } from '#hawser/platform';
import type { ShareTypeDocument } from '#hawser/projections';
import { badRequest, ManilaHttpError, notFoundError } from '../http/manila-error.js';
import { atLeast, contextOf, type RequestContext } from '../http/request-context.js';
import { readerOf, requesterOf } from '../http/requester.js';
import { isJsonObject, requireBodyKey, validateBody } from '../http/validate-body.js';
import { viewContextOf } from '../http/view-context.js';
import { matchesExtraSpecs } from './extra-specs-filter.js';
import { oneExtraSpec, withBooleanSpecsAsText } from './extra-specs-input.js';
import { runManilaAction, type ActionCall } from '../policy/manila-actions.js';
import { ManilaAction, ManilaActions, Policy, Since } from '../policy/route-policy.decorators.js';

/**
 * The `share_type` object of a create or update (`volume_type` when only that is given); as in
 * Manila, a body without one is a 400.
 */
const typePartOf = (body: unknown): Record<string, unknown> =>
  isJsonObject(body) && Object.hasOwn(body, 'volume_type') && !Object.hasOwn(body, 'share_type')
    ? requireBodyKey(body, 'volume_type', 400)
    : requireBodyKey(body, 'share_type', 400);

/**
 * oslo's `is_uuid_like`, which Manila checks a type access's project with: 32 hexadecimal
 * digits in either case, with dashes anywhere, braces around and a `urn:uuid:` prefix allowed.
 * The project is kept as given, as Manila keeps it.
 */
const isUuidLike = (value: unknown): value is string =>
  typeof value === 'string' &&
  /^[0-9a-f]{32}$/i.test(
    value
      .replaceAll('urn:', '')
      .replaceAll('uuid:', '')
      .replace(/^[{}]+|[{}]+$/g, '')
      .replaceAll('-', ''),
  );

/** Manila's share types, extra specs and type access (reference 3.8). */
@Controller('v2/types')
export class ShareTypesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(HAWSER_CONFIG) private readonly config: HawserConfig,
  ) {}

  private view(doc: ShareTypeDocument, ctx: RequestContext) {
    const view = shareTypeView(doc, viewContextOf(ctx), this.config.defaultShareType);
    return { share_type: view, volume_type: view };
  }

  @Post()
  @HttpCode(200)
  @Policy('share_type:create')
  async create(@Req() req: Request, @Body() body: unknown) {
    const ctx = contextOf(req);
    const part = typePartOf(body);
    if (part.description && !atLeast(ctx.microversion, '2.41')) {
      throw badRequest(
        "'description' key is not supported by this microversion. Use 2.41 or greater " +
          "microversion to be able to use 'description' in share type.",
      );
    }
    const dto = await validateBody(CreateShareTypeDto, withBooleanSpecsAsText(part), 'share type');
    const snapshotDefault = !atLeast(ctx.microversion, '2.24');
    const requester = requesterOf(ctx);
    const doc = await this.commands.execute(new CreateShareType(dto, snapshotDefault, requester));
    return this.view(doc, ctx);
  }

  @Get()
  @Policy('share_type:index')
  async list(@Req() req: Request, @Query() query: Record<string, string>) {
    const ctx = contextOf(req);
    const reader = readerOf(ctx);
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
    const docs = (await this.queries.execute(new ListShareTypes(query.is_public, reader))).filter(
      (d) => extraSpecs === undefined || matchesExtraSpecs(d.extra_specs, extraSpecs),
    );
    const views = docs.map((d) => this.view(d, ctx).share_type);
    return { share_types: views, volume_types: views };
  }

  @Get('default')
  @Policy('share_type:default')
  async showDefault(@Req() req: Request) {
    const ctx = contextOf(req);
    const doc = await this.queries.execute(new ShowDefaultShareType(readerOf(ctx)));
    if (!doc) throw notFoundError('Default share type not found.');
    return this.view(doc, ctx);
  }

  @Get(':id')
  @Policy('share_type:show')
  async show(@Req() req: Request, @Param('id') id: string) {
    const ctx = contextOf(req);
    return this.view(await this.queries.execute(new ShowShareType(id, readerOf(ctx))), ctx);
  }

  @Put(':id')
  @Since('2.50')
  @Policy('share_type:update')
  async update(@Req() req: Request, @Param('id') id: string, @Body() body: unknown) {
    const ctx = contextOf(req);
    const requester = requesterOf(ctx);
    const part = typePartOf(body);
    const updated = await this.commands.execute(new UpdateShareType(id, part, requester));
    return this.view(updated, ctx);
  }

  /**
   * GET /types/{id}/share_type_access: admin; public types 404. Manila's router maps the older
   * name, os-share-type-access, to the same listing at every microversion, and so does Hawser.
   */
  @Get(':id/share_type_access')
  @Policy('share_type:list_project_access')
  async access(@Req() req: Request, @Param('id') id: string) {
    return this.listAccess(req, id);
  }

  @Get(':id/os-share-type-access')
  @Policy('share_type:list_project_access')
  async legacyAccess(@Req() req: Request, @Param('id') id: string) {
    return this.listAccess(req, id);
  }

  private async listAccess(req: Request, id: string) {
    const ctx = contextOf(req);
    const doc = await this.queries
      .execute(new ShowShareType(id, readerOf(ctx)))
      .catch((error: unknown) => {
        // This listing names a missing type in words of its own.
        throw error instanceof ManilaHttpError && error.status === 404
          ? notFoundError(`Share type ${id} not found.`)
          : error;
      });
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
    await this.changeAccess(call, true);
  }

  @ManilaAction('removeProjectAccess')
  @Policy('share_type:remove_project_access')
  async removeProjectAccess(call: ActionCall) {
    await this.changeAccess(call, false);
  }

  private async changeAccess({ id, name, argument, ctx }: ActionCall, grant: boolean) {
    const { project } = requireBodyKey({ [name]: argument }, name, 400);
    if (!isUuidLike(project)) {
      throw badRequest(
        `Bad project format: project is not in proper format (${pythonText(project)})`,
      );
    }
    await this.commands.execute(new ChangeShareTypeAccess(id, project, grant, requesterOf(ctx)));
  }

  @Delete(':id')
  @HttpCode(202)
  @Policy('share_type:delete')
  async remove(@Req() req: Request, @Param('id') id: string) {
    await this.commands.execute(new DeleteShareType(id, requesterOf(contextOf(req))));
  }

  @Get(':id/extra_specs')
  @Policy('share_types_extra_spec:index')
  async extraSpecs(@Req() req: Request, @Param('id') id: string) {
    const ctx = contextOf(req);
    const doc = await this.queries.execute(new ShowShareType(id, readerOf(ctx)));
    return { extra_specs: doc.extra_specs };
  }

  @Get(':id/extra_specs/:key')
  @Policy('share_types_extra_spec:show')
  async extraSpec(@Req() req: Request, @Param('id') id: string, @Param('key') key: string) {
    const ctx = contextOf(req);
    const doc = await this.queries.execute(new ShowShareType(id, readerOf(ctx)));
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
    // The type is looked up before the body is read: an unknown type is a 404 whatever the body.
    const doc = await this.queries.execute(new ShowShareType(id, readerOf(ctx)));
    // Manila: a body without its extra_specs object is a plain 400.
    requireBodyKey(body, 'extra_specs', 400);
    const dto = await validateBody(ExtraSpecsDto, withBooleanSpecsAsText(body), 'extra specs');
    const requester = requesterOf(ctx);
    await this.commands.execute(new SetShareTypeExtraSpecs(doc.id, dto.extra_specs, requester));
    return { extra_specs: dto.extra_specs };
  }

  /** Manila's update of one extra spec: the body is `{key: value}` for the key in the path. */
  @Put(':id/extra_specs/:key')
  @Policy('share_types_extra_spec:update')
  async updateExtraSpec(
    @Req() req: Request,
    @Param('id') id: string,
    @Param('key') key: string,
    @Body() body: unknown,
  ) {
    const ctx = contextOf(req);
    const doc = await this.queries.execute(new ShowShareType(id, readerOf(ctx)));
    const dto = await validateBody(
      ExtraSpecsDto,
      withBooleanSpecsAsText({ extra_specs: oneExtraSpec(body, key) }),
      'extra specs',
    );
    await this.commands.execute(
      new SetShareTypeExtraSpecs(doc.id, dto.extra_specs, requesterOf(ctx)),
    );
    return dto.extra_specs;
  }

  @Delete(':id/extra_specs/:key')
  @HttpCode(202)
  @Policy('share_types_extra_spec:delete')
  async unsetExtraSpec(@Req() req: Request, @Param('id') id: string, @Param('key') key: string) {
    await this.commands.execute(new UnsetShareTypeExtraSpec(id, key, requesterOf(contextOf(req))));
  }
}
