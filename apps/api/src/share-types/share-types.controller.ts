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
} from '@nestjs/common';
import type { Request } from 'express';
import { CreateShareTypeDto, ExtraSpecsDto, shareTypeView, toBoolean } from '#hawser/api-contracts';
import type { ShareTypeDocument } from '#hawser/projections';
import { badRequest, notFoundError } from '../http/manila-error.js';
import { requireAdmin, requireAuth } from '../http/policy.js';
import { atLeast, contextOf, type RequestContext } from '../http/request-context.js';
import { requireBodyKey, validateBody } from '../http/validate-body.js';
import { viewContextOf } from '../http/view-context.js';
import { withBooleanSpecsAsText } from './extra-specs-input.js';
import { ShareTypesService } from './share-types.service.js';

/** A spec the type has itself: `constructor` or `__proto__` are keys like any other, and absent. */
const ownSpec = (doc: ShareTypeDocument, key: string): string | undefined =>
  Object.hasOwn(doc.extra_specs, key) ? doc.extra_specs[key] : undefined;

/** Manila's share types and extra specs (reference 3.8). */
@Controller('v2/types')
export class ShareTypesController {
  constructor(private readonly types: ShareTypesService) {}

  private view(doc: ShareTypeDocument, ctx: RequestContext) {
    const view = shareTypeView(doc, viewContextOf(ctx), this.types.defaultShareTypeName);
    return { share_type: view, volume_type: view };
  }

  @Post()
  @HttpCode(200)
  async create(@Req() req: Request, @Body() body: unknown) {
    const ctx = contextOf(req);
    requireAdmin(ctx, 'share_type:create');
    const part =
      typeof body === 'object' && body !== null && 'volume_type' in body && !('share_type' in body)
        ? requireBodyKey(body, 'volume_type')
        : requireBodyKey(body, 'share_type');
    const dto = await validateBody(CreateShareTypeDto, withBooleanSpecsAsText(part), 'share type');
    const doc = await this.types.create(dto, ctx, !atLeast(ctx.microversion, '2.24'));
    return this.view(doc as ShareTypeDocument, ctx);
  }

  @Get()
  async list(@Req() req: Request, @Query('is_public') isPublic?: string) {
    const ctx = contextOf(req);
    const docs = await this.types.list(requireAuth(ctx), isPublic);
    const views = docs.map((d) => this.view(d, ctx).share_type);
    return { share_types: views, volume_types: views };
  }

  @Get('default')
  async showDefault(@Req() req: Request) {
    const ctx = contextOf(req);
    const doc = await this.types.findDefault(requireAuth(ctx));
    if (!doc) throw notFoundError('Default share type not found.');
    return this.view(doc, ctx);
  }

  @Get(':id')
  async show(@Req() req: Request, @Param('id') id: string) {
    const ctx = contextOf(req);
    return this.view(await this.types.find(id, requireAuth(ctx)), ctx);
  }

  @Put(':id')
  async update(@Req() req: Request, @Param('id') id: string, @Body() body: unknown) {
    const ctx = contextOf(req);
    if (!atLeast(ctx.microversion, '2.50')) throw notFoundError('The resource could not be found.');
    const auth = requireAdmin(ctx, 'share_type:update');
    const part = requireBodyKey(body, 'share_type') as Record<string, unknown>;
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

  @Delete(':id')
  @HttpCode(202)
  async remove(@Req() req: Request, @Param('id') id: string) {
    const ctx = contextOf(req);
    await this.types.delete(id, ctx, requireAdmin(ctx, 'share_type:delete'));
  }

  @Get(':id/extra_specs')
  async extraSpecs(@Req() req: Request, @Param('id') id: string) {
    const ctx = contextOf(req);
    const doc = await this.types.find(id, requireAdmin(ctx, 'share_types_extra_spec:index'));
    return { extra_specs: doc.extra_specs };
  }

  @Get(':id/extra_specs/:key')
  async extraSpec(@Req() req: Request, @Param('id') id: string, @Param('key') key: string) {
    const ctx = contextOf(req);
    const doc = await this.types.find(id, requireAdmin(ctx, 'share_types_extra_spec:show'));
    const value = ownSpec(doc, key);
    if (value === undefined) {
      throw notFoundError(`Share Type ${doc.id} has no extra specs with key ${key}.`);
    }
    return { [key]: value };
  }

  @Post(':id/extra_specs')
  @HttpCode(200)
  async setExtraSpecs(@Req() req: Request, @Param('id') id: string, @Body() body: unknown) {
    const ctx = contextOf(req);
    const doc = await this.types.find(id, requireAdmin(ctx, 'share_types_extra_spec:create'));
    // Manila: a body without its extra_specs object is a plain 400.
    if (typeof body !== 'object' || body === null || !('extra_specs' in body)) {
      throw badRequest('Malformed request body: extra_specs is missing.');
    }
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
  async unsetExtraSpec(@Req() req: Request, @Param('id') id: string, @Param('key') key: string) {
    const ctx = contextOf(req);
    const doc = await this.types.find(id, requireAdmin(ctx, 'share_types_extra_spec:delete'));
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
