import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ProjectionRunner } from '#hawser/read-models';
import { ManilaHttpError, notFoundError } from '../http/manila-error.js';
import { Policy } from '../policy/route-policy.decorators.js';

/** Read models as admins see them: how far each has read the log, and rebuilds on demand. */
@Controller('hawser/v1/projections')
export class ProjectionsController {
  constructor(private readonly runner: ProjectionRunner) {}

  @Get()
  @Policy('hawser:projections:get_all')
  list() {
    return { projections: this.runner.status() };
  }

  /**
   * Rebuilds a projection from position zero into fresh collections and swaps them in once
   * caught up; the service keeps answering from the old ones meanwhile. Answers when swapped.
   */
  @Post(':name/rebuild')
  @HttpCode(200)
  @Policy('hawser:projections:rebuild')
  async rebuild(@Param('name') name: string) {
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
