import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ProjectionRebuilds, ProjectorRole } from '#hawser/platform';
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
    private readonly rebuilds: ProjectionRebuilds,
  ) {}

  @Get()
  @Policy('hawser:projections:get_all')
  list() {
    return { projector: this.role.status(), projections: this.runner.status() };
  }

  /**
   * Rebuilds a projection from position zero into fresh collections and swaps them in once
   * caught up; the service keeps answering from the old ones meanwhile. Answers when swapped.
   * Asked of a process that does not project, the projector does it (over NATS).
   */
  @Post(':name/rebuild')
  @HttpCode(200)
  @Policy('hawser:projections:rebuild')
  async rebuild(@Param('name') name: string) {
    const outcome = await this.rebuilds.rebuild(name);
    switch (outcome.kind) {
      case 'rebuilt':
        return { projection: { ...outcome.projection, rebuilt_in_ms: outcome.ms } };
      case 'unknown':
        throw notFoundError(`Projection ${name} could not be found.`);
      case 'busy':
        throw new ManilaHttpError(409, `Projection ${name} is already being rebuilt.`);
      case 'no-projector':
        throw new ManilaHttpError(
          409,
          'No process projects now (the projector is being taken over); try again.',
        );
    }
  }
}
