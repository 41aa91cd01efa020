import type { CommandHandler } from '#hawser/application';
import {
  affinityMetadataOf,
  shareDecider,
  shareStream,
  type SchedulerHints,
  type ShareCommand,
  activeShareOf,
} from '#hawser/domain';
import type { RecordedEvent, SqliteEventStore } from '#hawser/eventstore';
import { openSqliteLog, shareRequest, type SqliteLog } from '../test-support/sqlite-log.js';
import { AffinityHints, shareLoaderOf } from './affinity-hints.js';
import { affinityLinksProcessManager } from './affinity-links.process-manager.js';

const A = 'aaaaaaaa-0000-4000-8000-000000000000';
const B = 'bbbbbbbb-0000-4000-8000-000000000000';
const GONE = 'dddddddd-0000-4000-8000-000000000000';
const N = 'eeeeeeee-0000-4000-8000-000000000000';
const now = '2026-11-23T10:00:00.000Z';

describe('affinity links process manager and hint resolution (real SQLite log)', () => {
  let log: SqliteLog;
  let events: SqliteEventStore;
  let commands: CommandHandler;

  beforeEach(() => {
    log = openSqliteLog('hawser-affinity-');
    ({ events, commands } = log);
  });
  afterEach(() => log.close());

  const run = (shareId: string, command: ShareCommand, commandId: string) =>
    commands.handle(shareDecider, shareStream(shareId), command, { commandId });
  /** `listed`: the hints the new share's metadata lists (the API leaves out what it may not link). */
  const request = async (
    shareId: string,
    hints: SchedulerHints | null = null,
    host?: string,
    listed = hints,
  ) => {
    await run(
      shareId,
      shareRequest(shareId, now, {
        instanceId: `${shareId.slice(0, 8)}-1111-4111-8111-111111111111`,
        size: 1,
        metadata: affinityMetadataOf(listed),
        schedulerHints: hints,
      }),
      `request-${shareId}`,
    );
    if (host) {
      const instanceId = `${shareId.slice(0, 8)}-1111-4111-8111-111111111111`;
      await run(
        shareId,
        { type: 'ScheduleShareInstance', instanceId, host, availabilityZone: 'az', now },
        `schedule-${shareId}`,
      );
    }
    const recorded = await events.readStream(shareStream(shareId));
    return recorded[0] as RecordedEvent;
  };
  const deleteShare = async (shareId: string) => {
    await run(shareId, { type: 'DeleteShare', force: true, now }, `delete-${shareId}`);
    const recorded = await events.readStream(shareStream(shareId));
    return recorded.find((e) => e.type === 'ShareDeleted') as RecordedEvent;
  };
  const metadataOf = async (shareId: string) =>
    activeShareOf((await commands.load(shareDecider, shareStream(shareId))).state).metadata;
  const changesOf = async (shareId: string) =>
    (await events.readStream(shareStream(shareId))).filter(
      (e) => e.type === 'ShareMetadataChanged',
    );

  it('given a share naming two others, when its request is handled twice, then each gets one link caused by it', async () => {
    await request(A);
    await request(B);
    const requested = await request(N, { differentHost: [A, B], sameHost: [A] });
    const links = affinityLinksProcessManager(commands, () => now);

    await links.handle(requested);
    await links.handle(requested);

    expect(await metadataOf(A)).toEqual({
      __affinity_different_host: N,
      __affinity_same_host: N,
    });
    expect(await metadataOf(B)).toEqual({ __affinity_different_host: N });
    const changes = await changesOf(A);
    expect(changes).toHaveLength(2);
    expect(changes.every((e) => e.metadata.$causationId === requested.id)).toBe(true);
    expect(changes[0]?.metadata.userId).toBe('affinity');
  });

  it('given a named share deleted meanwhile, when the request is handled, then the new share drops it', async () => {
    await request(A);
    await request(GONE);
    await deleteShare(GONE);
    const requested = await request(N, { differentHost: [A, GONE] });
    await run(
      N,
      {
        type: 'ChangeShareMetadata',
        set: { __affinity_different_host: `${A},${GONE}` },
        unset: [],
        now,
      },
      'api-metadata',
    );

    await affinityLinksProcessManager(commands, () => now).handle(requested);

    expect(await metadataOf(N)).toEqual({ __affinity_different_host: A });
    expect(await metadataOf(A)).toEqual({ __affinity_different_host: N });
  });

  it("given a hint its metadata does not list (another project's share), when the request is handled, then only the listed share is linked", async () => {
    await request(A);
    await request(B);
    const requested = await request(N, { sameHost: [A, B] }, undefined, { sameHost: [B] });

    await affinityLinksProcessManager(commands, () => now).handle(requested);

    expect(await metadataOf(A)).toEqual({});
    expect(await changesOf(A)).toEqual([]);
    expect(await metadataOf(B)).toEqual({ __affinity_same_host: N });
    expect(await metadataOf(N)).toEqual({ __affinity_same_host: B });
  });

  it('given linked shares, when one is deleted and the deletion handled twice, then the others lose its id once, whatever its own metadata says', async () => {
    await request(A);
    await request(B);
    const links = affinityLinksProcessManager(commands, () => now);
    await links.handle(await request(N, { differentHost: [A, B] }));
    await run(
      A,
      { type: 'ChangeShareMetadata', set: { team: 'x' }, unset: [], now },
      'user-metadata',
    );

    // An admin took the key off the share: its own hints still say whom it named.
    await run(
      N,
      { type: 'ChangeShareMetadata', set: {}, unset: ['__affinity_different_host'], now },
      'admin-metadata',
    );
    const deleted = await deleteShare(N);
    await links.handle(deleted);
    await links.handle(deleted);

    expect(await metadataOf(A)).toEqual({ team: 'x' });
    expect(await metadataOf(B)).toEqual({});
    expect((await changesOf(B)).map((e) => e.data)).toEqual([
      { set: { __affinity_different_host: N }, unset: [], updatedAt: now },
      { set: {}, unset: ['__affinity_different_host'], updatedAt: now },
    ]);
  });

  it('resolves hints to the hosts of every instance from the log; gone or malformed shares to none', async () => {
    await request(A, null, 'h1@be#a');
    await request(B);
    await request(GONE);
    await deleteShare(GONE);
    const hints = new AffinityHints(shareLoaderOf(commands));

    expect(await hints.resolve({ sameHost: [A, B], differentHost: [GONE, 'not-a-uuid'] })).toEqual({
      sameHost: [
        { shareId: A, instanceHosts: ['h1@be#a'] },
        { shareId: B, instanceHosts: [''] },
      ],
      differentHost: [
        { shareId: GONE, instanceHosts: [] },
        { shareId: 'not-a-uuid', instanceHosts: [] },
      ],
    });
    expect(await hints.resolve(null)).toEqual({ sameHost: null, differentHost: null });
  });

  it("reads a share's hints from its metadata (replicas, migrations), unless an admin overrides them", async () => {
    await request(A, null, 'h1@be#a');
    const hints = new AffinityHints(shareLoaderOf(commands));
    const share = { metadata: { __affinity_different_host: A, team: 'x' } };

    expect(await hints.ofShare(share)).toEqual({
      sameHost: null,
      differentHost: [{ shareId: A, instanceHosts: ['h1@be#a'] }],
    });
    expect(await hints.ofShare(share, { override: true })).toEqual({
      sameHost: null,
      differentHost: null,
    });
  });

  it('checks a migration destination against the hints its metadata records, unless overridden', async () => {
    await request(A, null, 'h1@be#a');
    await request(B, null, 'h1@be#b');
    const hints = new AffinityHints(shareLoaderOf(commands));
    const share = { metadata: { __affinity_different_host: A, __affinity_same_host: B } };

    expect(await hints.allowsHost(share, 'h1@be#b')).toEqual({ passes: true });
    expect(await hints.allowsHost(share, 'h1@be#a')).toMatchObject({
      passes: false,
      filter: 'AffinityFilter',
    });
    expect(
      await hints.allowsHost({ metadata: { __affinity_different_host: A } }, 'h1@be#a'),
    ).toMatchObject({
      passes: false,
      filter: 'AntiAffinityFilter',
    });
    expect(await hints.allowsHost(share, 'h1@be#a', { override: true })).toEqual({ passes: true });
  });
});
