import path from 'node:path';
import { CommandHandler } from '#hawser/application';
import {
  DomainError,
  MANILA_DEFAULT_QUOTAS,
  quotaDecider,
  quotaStream,
  quotaUsage,
  requestHolding,
  shareStream,
} from '#hawser/domain';
import type { SqliteEventStore } from '#hawser/eventstore';
import {
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
} from '#hawser/eventstore';
import { SqliteDocumentStore } from '#hawser/read-models';
import { openSqliteLog, shareRequest, type SqliteLog } from '../test-support/sqlite-log.js';
import {
  PENDING_RESERVATIONS,
  pendingReservationsProcessManager,
} from './pending-reservations.process-manager.js';
import { ReservationExpiry } from './reservation-expiry.js';

const RESERVED_AT = '2026-11-25T10:00:00.000Z';
const BOUND_MS = 60_000;
/** A clock past the bound of every reservation made at RESERVED_AT. */
const afterBound = () => new Date(Date.parse(RESERVED_AT) + BOUND_MS + 1);

/**
 * The SQLite store with one interleaving chosen: before the first append to `streamId`,
 * `before` runs (another writer getting in between the expiry's read and its append).
 */
class InterleavingEventStore {
  private done = false;
  constructor(
    readonly inner: EventStore,
    private readonly streamId: string,
    private readonly before: () => Promise<void>,
  ) {}
  readStream: EventStore['readStream'] = (...args) => this.inner.readStream(...args);
  async append(
    streamId: string,
    events: readonly NewEvent[],
    options: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    if (streamId === this.streamId && !this.done) {
      this.done = true;
      await this.before();
    }
    return this.inner.append(streamId, events, options);
  }
}

describe('reservation expiry', () => {
  let log: SqliteLog;
  let events: SqliteEventStore;
  let documents: SqliteDocumentStore;
  let commands: CommandHandler;

  beforeEach(() => {
    log = openSqliteLog('hawser-reservation-expiry-');
    ({ events, commands } = log);
    documents = new SqliteDocumentStore({ file: path.join(log.dir, 'read-models.sqlite') });
  });
  afterEach(async () => {
    await documents.close();
    await log.close();
  });

  /** Reserves a share as the API does, and lets the index see the log. */
  const reserveShare = async (shareId: string) => {
    await commands.handle(
      quotaDecider,
      quotaStream('p1'),
      {
        type: 'ReserveQuota',
        projectId: 'p1',
        holderId: shareId,
        holderKind: 'share',
        deltas: { shares: 1, gigabytes: 2 },
        defaults: MANILA_DEFAULT_QUOTAS,
        requestShareId: shareId,
        now: RESERVED_AT,
      },
      { commandId: `reserve-${shareId}` },
    );
  };
  const recordRequest = (shareId: string, store: EventStore = events) =>
    new CommandHandler(store).handle(
      requestHolding(shareId),
      shareStream(shareId),
      shareRequest(shareId, RESERVED_AT),
      { commandId: `request-${shareId}` },
    );
  const indexLog = async () => {
    const index = pendingReservationsProcessManager();
    for (const event of await events.readAll({ filter: index.filter })) {
      await documents.write((await index.handle(event)) ?? []);
    }
  };
  const usage = async () =>
    quotaUsage((await commands.load(quotaDecider, quotaStream('p1'))).state);
  const pending = () => documents.find(PENDING_RESERVATIONS);
  const expiry = (store: EventStore = events, clock = afterBound) =>
    new ReservationExpiry(store, new CommandHandler(store), documents, {
      expireAfterMs: BOUND_MS,
      clock,
    });

  it('given a reservation whose request was never recorded (a crash), when the bound has passed, then the request is fenced out and the quota released', async () => {
    await reserveShare('s1');
    await indexLog();
    expect(await pending()).toHaveLength(1);

    expect(await expiry().expireDue()).toBe(1);

    expect((await events.readStream(shareStream('s1'))).map((e) => e.type)).toEqual([
      'ReservationExpired',
    ]);
    expect((await usage()).shares).toBe(0);
    expect(await pending()).toEqual([]);
    // The request, had it only been slow, now fails visibly and counts nothing.
    await expect(recordRequest('s1')).rejects.toBeInstanceOf(DomainError);
    expect((await usage()).shares).toBe(0);
  });

  it('given a reservation not yet past the bound, when a pass runs, then nothing changes', async () => {
    await reserveShare('s1');
    await indexLog();

    expect(await expiry(events, () => new Date(RESERVED_AT)).expireDue()).toBe(0);

    expect(await events.readStream(shareStream('s1'))).toEqual([]);
    expect((await usage()).shares).toBe(1);
    expect(await pending()).toHaveLength(1);
  });

  it('given the request was recorded but the index has not seen it yet, when a pass runs, then the reservation is kept', async () => {
    await reserveShare('s1');
    await indexLog();
    await recordRequest('s1');

    expect(await expiry().expireDue()).toBe(0);

    expect((await events.readStream(shareStream('s1'))).map((e) => e.type)).toEqual([
      'ShareRequested',
    ]);
    expect((await usage()).shares).toBe(1);
    expect(await pending()).toEqual([]);
  });

  it('given the request is recorded between the expiry reading the share and fencing it, when the fence is appended, then it conflicts, and the reservation is kept', async () => {
    await reserveShare('s1');
    await indexLog();
    const racing = new InterleavingEventStore(events, shareStream('s1'), async () => {
      await recordRequest('s1');
    });

    expect(await expiry(racing as unknown as EventStore).expireDue()).toBe(0);

    expect((await events.readStream(shareStream('s1'))).map((e) => e.type)).toEqual([
      'ShareRequested',
    ]);
    expect((await usage()).shares).toBe(1);
  });

  it('given the expiry fenced the request and died before releasing, when the next pass runs, then it releases once and appends no second fence', async () => {
    await reserveShare('s1');
    await indexLog();
    await events.append(
      shareStream('s1'),
      [
        {
          id: 'fence-1',
          type: 'ReservationExpired',
          data: { reservationId: 's1', expiredAt: RESERVED_AT },
        },
      ],
      { expectedRevision: 'no_stream' },
    );

    expect(await expiry().expireDue()).toBe(1);
    expect(await expiry().expireDue()).toBe(0);

    expect(await events.readStream(shareStream('s1'))).toHaveLength(1);
    expect((await events.readStream(quotaStream('p1'))).map((e) => e.type)).toEqual([
      'QuotaReserved',
      'QuotaReleased',
    ]);
  });

  it('given a pass already released a reservation, when the index replays the log after a crash, then the next pass changes nothing', async () => {
    await reserveShare('s1');
    await indexLog();
    await expiry().expireDue();
    const before = await events.headPosition();

    // The index's checkpoint was behind: it sees the reservation again (and its release).
    const index = pendingReservationsProcessManager();
    const [reserved] = await events.readStream(quotaStream('p1'));
    await documents.write((await index.handle(reserved!)) ?? []);
    expect(await expiry().expireDue()).toBe(0);

    expect(await events.headPosition()).toBe(before);
    expect(await pending()).toEqual([]);
  });

  it("given an extend whose request was never recorded, when the bound has passed, then the share's stream is fenced and the adjustment reverted", async () => {
    await reserveShare('s1');
    await recordRequest('s1');
    await commands.handle(
      quotaDecider,
      quotaStream('p1'),
      {
        type: 'AdjustQuota',
        projectId: 'p1',
        holderId: 's1',
        adjustmentId: 'c-extend',
        deltas: { gigabytes: 3 },
        defaults: MANILA_DEFAULT_QUOTAS,
        requestShareId: 's1',
        now: RESERVED_AT,
      },
      { commandId: 'c-extend' },
    );
    await indexLog();
    expect((await usage()).gigabytes).toBe(5);

    expect(await expiry().expireDue()).toBe(1);

    expect((await usage()).gigabytes).toBe(2);
    const fenced = await events.readStream(shareStream('s1'));
    expect(fenced.map((e) => e.type)).toEqual(['ShareRequested', 'ReservationExpired']);
    expect(fenced[1]?.data).toMatchObject({ reservationId: 'c-extend' });
  });

  it('given reservations made by process managers (no request named), when the index sees them, then none waits for expiry', async () => {
    await commands.handle(
      quotaDecider,
      quotaStream('p1'),
      {
        type: 'ReserveQuota',
        projectId: 'p1',
        holderId: 's9',
        holderKind: 'share',
        deltas: { shares: 1 },
        defaults: MANILA_DEFAULT_QUOTAS,
        now: RESERVED_AT,
      },
      { commandId: 'pm-reserve' },
    );
    await indexLog();

    expect(await pending()).toEqual([]);
  });
});
