import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ProjectorRole } from '#hawser/platform';
import { ProjectionRunner } from '#hawser/read-models';
import { ManilaHttpError, notFoundError } from '../http/manila-error.js';
import { Policy } from '../policy/route-policy.decorators.js';

/**
 * Read models as admins see them: how far each has read the log, whether this process projects
 * (`projector`: active, or standby behind the process that holds the lease), rebuilds on demand.
 */
@Controller('hawser/v1/projections')
export class ProjectionsController {
  constructor(
    private readonly runner: ProjectionRunner,
    private readonly role: ProjectorRole,
  ) {}

  @Get()
  @Policy('hawser:projections:get_all')
  list() {
    return { projector: this.role.status(), projections: this.runner.status() };
  }

  /**
   * Rebuilds a projection from position zero into fresh collections and swaps them in once
   * caught up; the service keeps answering from the old ones meanwhile. Answers when swapped.
   */
  @Post(':name/rebuild')
  @HttpCode(200)
  @Policy('hawser:projections:rebuild')
  async rebuild(@Param('name') name: string) {
    if (!this.role.isActive) {
      const holder = this.role.status().holder;
      throw new ManilaHttpError(
        409,
        `This process does not project; ask the projector` +
          (holder ? ` (process ${holder.pid} on ${holder.hostname}).` : '.'),
      );
    }
    const current = this.runner.status().find((p) => p.name === name);
    if (!current) throw notFoundError(`Projection ${name} could not be found.`);
    if (current.rebuilding) {
      throw new ManilaHttpError(409, `Projection ${name} is already being rebuilt.`);
    }
    const started = Date.now();
    await this.runner.rebuild(name);
    const status = this.runner.status().find((p) => p.name === name);
    return { projection: { ...status, rebuilt_in_ms: Date.now() - started } };
  }
}
