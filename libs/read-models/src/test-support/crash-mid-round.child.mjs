// Runs two live projections that count events per `thing-` stream, lets them commit a few
// rounds, then appends one `Freeze` event. Both handle it in one round; the document of the
// second batch encoded freezes the process inside the round's transaction (the first batch's
// writes and checkpoint are in it by then) after telling the parent "inside", so the parent
// can SIGKILL it there. Usage: node crash-mid-round.child.mjs EVENTS_FILE DOCUMENTS_FILE ROUNDS
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import process from 'node:process';
import { SqliteEventStore } from '#hawser/eventstore';
import { ProjectionRunner, SqliteDocumentStore } from '#hawser/read-models';

const [eventsFile, documentsFile, rounds] = process.argv.slice(2);
const events = new SqliteEventStore({ file: eventsFile });
const documents = new SqliteDocumentStore({ file: documentsFile });

const freeze = () => {
  fs.writeSync(1, 'inside\n');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
};
let frozenEncoded = 0;
const freezing = (document) => ({
  ...document,
  toJSON: () => {
    frozenEncoded += 1;
    if (frozenEncoded === 2) freeze();
    return document;
  },
});
const counting = (name) => ({
  name,
  collections: [name],
  filter: { streamPrefixes: ['thing-'] },
  async handle(event, ctx) {
    const current = await ctx.get(name, event.streamId);
    const document = { id: event.streamId, count: (current?.count ?? 0) + 1 };
    ctx.put(name, event.type === 'Freeze' ? freezing(document) : document);
  },
});
const append = (stream, type) =>
  events.append(stream, [{ id: randomUUID(), type, data: {} }], { expectedRevision: 'any' });

const runner = new ProjectionRunner(events, documents, [
  counting('counts_a'),
  counting('counts_b'),
]);
await runner.start();
for (let round = 0; round < Number(rounds); round += 1) {
  await Promise.all([append(`thing-${round}`, 'Counted'), append('thing-all', 'Counted')]);
  await runner.waitForPosition(await events.headPosition(), 10_000);
}
await append('thing-all', 'Freeze');
