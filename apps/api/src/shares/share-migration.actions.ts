import {
  CancelShareMigration,
  CompleteShareMigration,
  GetShareMigrationProgress,
  ResetShareTaskState,
  StartShareMigration,
  type MigrationProgress,
  type MigrationStartRequest,
} from '#hawser/application';
import { toBoolean } from '#hawser/api-contracts';
import type { TaskState } from '#hawser/domain';
import type { CommandBus, QueryBus } from '@nestjs/cqrs';
import { badRequest } from '../http/manila-error.js';
import { atLeast } from '../http/request-context.js';
import { requesterOf } from '../http/requester.js';
import { isJsonObject } from '../http/validate-body.js';
import type { ActionCall } from '../policy/manila-actions.js';

const MANDATORY = ['preserve_metadata', 'writable', 'nondisruptive', 'preserve_snapshots', 'host'];
const BOOLEANS = [
  'preserve_metadata',
  'writable',
  'nondisruptive',
  'preserve_snapshots',
  'force_host_assisted_migration',
  'force',
] as const;

/** Manila's checks of a migration_start body (check_params_exist, strict booleans). */
export const migrationStartRequestOf = (argument: unknown): MigrationStartRequest => {
  if (!isJsonObject(argument) || Object.keys(argument).length === 0) {
    throw badRequest('Request is missing body.');
  }
  if (MANDATORY.some((key) => !Object.hasOwn(argument, key))) {
    throw badRequest(`Must specify all mandatory parameters: ${MANDATORY.join(', ')}`);
  }
  const flags = {} as Record<(typeof BOOLEANS)[number], boolean>;
  for (const key of BOOLEANS) {
    const value = Object.hasOwn(argument, key) ? toBoolean(argument[key]) : false;
    if (value === undefined) {
      throw badRequest(`Invalid value ${String(argument[key])} for parameter ${key}.`);
    }
    flags[key] = value;
  }
  const host = argument.host;
  if (typeof host !== 'string' || host.trim() === '') {
    throw badRequest('Invalid host: a pool host string host@backend#pool is expected.');
  }
  return {
    host,
    forceHostAssistedMigration: flags.force_host_assisted_migration,
    preserveMetadata: flags.preserve_metadata,
    writable: flags.writable,
    nondisruptive: flags.nondisruptive,
    preserveSnapshots: flags.preserve_snapshots,
    newShareTypeId: optionalId(argument.new_share_type_id, 'new_share_type_id'),
    newShareNetworkId: optionalId(argument.new_share_network_id, 'new_share_network_id'),
    force: flags.force,
  };
};

const optionalId = (value: unknown, name: string): string | null => {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') throw badRequest(`Invalid ${name}: a string id is expected.`);
  return value;
};

/** The `task_state` of a reset_task_state body (Manila's validate_update). */
const taskStateArgument = (argument: unknown): TaskState | null => {
  if (!isJsonObject(argument) || !Object.hasOwn(argument, 'task_state')) {
    throw badRequest("Must specify 'task_state'");
  }
  return argument.task_state as TaskState | null;
};

/** Manila's share_migration view: `details` from 2.59. */
const progressView = (progress: MigrationProgress, call: ActionCall) => ({
  total_progress: progress.total_progress,
  task_state: progress.task_state,
  ...(atLeast(call.ctx.microversion, '2.59') && { details: {} }),
});

/**
 * The share migration actions (Manila 2.22+), each a use case; the shares controller declares
 * their routes, versions and rules and hands them here.
 */
export const shareMigrationActions = (commands: CommandBus, queries: QueryBus) => ({
  async start(call: ActionCall) {
    const request = migrationStartRequestOf(call.argument);
    const { started } = await commands.execute(
      new StartShareMigration(call.id, request, requesterOf(call.ctx)),
    );
    call.res.status(started ? 202 : 200);
  },
  complete: (call: ActionCall) =>
    commands.execute(new CompleteShareMigration(call.id, requesterOf(call.ctx))),
  cancel: (call: ActionCall) =>
    commands.execute(new CancelShareMigration(call.id, requesterOf(call.ctx))),
  async progress(call: ActionCall) {
    const progress = await queries.execute(
      new GetShareMigrationProgress(call.id, requesterOf(call.ctx)),
    );
    call.res.status(200);
    return progressView(progress, call);
  },
  resetTaskState: (call: ActionCall) =>
    commands.execute(
      new ResetShareTaskState(call.id, taskStateArgument(call.argument), requesterOf(call.ctx)),
    ),
});
