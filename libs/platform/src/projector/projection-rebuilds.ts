import type { ProjectionRunner, ProjectionStatus } from '#hawser/read-models';

/** What asking for a rebuild came to, wherever the projector runs. */
export type RebuildOutcome =
  | { readonly kind: 'rebuilt'; readonly projection: ProjectionStatus; readonly ms: number }
  | { readonly kind: 'unknown' }
  | { readonly kind: 'busy' }
  /** No process projects now (a takeover in progress), or it did not answer in time. */
  | { readonly kind: 'no-projector' };

/**
 * Rebuilds a projection on this process's runner, the projector's: refused for a name the
 * runner does not have or one already being rebuilt; answers once swapped.
 */
export const rebuildHere = async (
  runner: ProjectionRunner,
  name: string,
): Promise<RebuildOutcome> => {
  const current = runner.status().find((p) => p.name === name);
  if (current === undefined) return { kind: 'unknown' };
  if (current.rebuilding) return { kind: 'busy' };
  const started = Date.now();
  await runner.rebuild(name);
  const projection = runner.status().find((p) => p.name === name) ?? current;
  return { kind: 'rebuilt', projection, ms: Date.now() - started };
};
