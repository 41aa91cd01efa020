import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CommandHandler } from '#hawser/application';
import { capabilitiesOf, type ShareCommand } from '#hawser/domain';
import { SqliteEventStore } from '#hawser/eventstore';

/** A real SQLite event log in a directory of its own, for one test. */
export interface SqliteLog {
  readonly dir: string;
  readonly events: SqliteEventStore;
  readonly commands: CommandHandler;
  /** Closes the log and removes the directory (with whatever else the test put there). */
  close(): Promise<void>;
}

export const openSqliteLog = (prefix: string): SqliteLog => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const events = new SqliteEventStore({ file: path.join(dir, 'events.sqlite') });
  return {
    dir,
    events,
    commands: new CommandHandler(events),
    async close() {
      await events.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
};

/** Project p1's request, at `createdAt`, for NFS share `shareId` of type `default` (no extra specs, no hints). */
export const shareRequest = (
  shareId: string,
  createdAt: string,
  more: Partial<Extract<ShareCommand, { type: 'RequestShare' }>> = {},
): ShareCommand => ({
  type: 'RequestShare',
  shareId,
  instanceId: `${shareId}-i`,
  projectId: 'p1',
  userId: 'u1',
  name: null,
  description: null,
  size: 2,
  shareProto: 'NFS',
  shareType: { id: 't1', name: 'default', extraSpecs: {} },
  capabilities: capabilitiesOf({}),
  availabilityZone: null,
  metadata: {},
  isPublic: false,
  snapshotId: null,
  schedulerHints: null,
  createdAt,
  ...more,
});
