// Appends COMMITTED batches of appends, then freezes inside the next batch's transaction (the
// event data's toJSON runs while its append inserts) after telling the parent "inside", so the
// parent can SIGKILL it there. Usage: node crash-mid-batch.child.mjs FILE COMMITTED APPENDS EVENTS
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import process from 'node:process';
import { SqliteEventStore } from '#hawser/eventstore';

const [file, committed, appends, events] = process.argv.slice(2);
const store = new SqliteEventStore({ file });
const batch = (name, freezeAt) =>
  Array.from({ length: Number(appends) }, (_, a) =>
    store.append(
      `${name}-${a}`,
      Array.from({ length: Number(events) }, (_, e) => ({
        id: randomUUID(),
        type: 'Appended',
        data: a === freezeAt && e === 1 ? { toJSON: freeze } : { a, e },
      })),
      { expectedRevision: 'no_stream' },
    ),
  );
const freeze = () => {
  fs.writeSync(1, 'inside\n');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
  return {};
};

for (let b = 0; b < Number(committed); b++) await Promise.all(batch(`committed${b}`, -1));
void Promise.all(batch('frozen', Number(appends) - 2));
