import type { EventStore } from '#hawser/eventstore';
import type { ProjectionRunner } from '#hawser/read-models';
import type { WorkflowRunners } from '../workflows/workflow-runners.js';

export interface FollowerLag {
  readonly kind: 'projection' | 'process_manager';
  readonly name: string;
  readonly position: number;
  /** Events in the log after the follower's position (at most `MAX_COUNTED`). */
  readonly events: number;
  /** Age of the oldest event the follower has not dealt with; 0 when caught up. */
  readonly seconds: number;
}

/** Events read past the slowest follower to count lag: beyond this a lag is "at least". */
export const MAX_COUNTED = 10_000;

/**
 * How far each projection and process manager of this process is behind the log, in events and
 * in seconds (the age of the first event it has not dealt with). One read of the log past the
 * slowest follower answers for all of them.
 */
export class LogFollowerLag {
  constructor(
    private readonly events: EventStore,
    private readonly workflows: WorkflowRunners,
    private readonly projections: ProjectionRunner | undefined,
  ) {}

  async measure(now = Date.now()): Promise<FollowerLag[]> {
    const followers = [
      ...(this.projections?.status() ?? []).map((p) => ({
        kind: 'projection' as const,
        name: p.name,
        position: p.position,
      })),
      ...this.workflows
        .all()
        .flatMap((runner) =>
          runner.status().map((pm) => ({ kind: 'process_manager' as const, ...pm })),
        ),
    ];
    if (followers.length === 0) return [];
    const slowest = Math.min(...followers.map((f) => f.position));
    const head = await this.events.headPosition();
    const behind =
      head > slowest ? await this.events.readAll({ after: slowest, maxCount: MAX_COUNTED }) : [];
    return followers.map((follower) => {
      const unseen = behind.filter((event) => event.position > follower.position);
      const oldest = unseen[0];
      return {
        ...follower,
        events: unseen.length,
        seconds: oldest ? Math.max(0, (now - Date.parse(oldest.metadata.recordedAt)) / 1000) : 0,
      };
    });
  }
}
