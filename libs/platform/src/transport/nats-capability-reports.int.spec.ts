import { connect } from '@nats-io/transport-node';
import { Logger } from '@nestjs/common';
import type { BackendStatsReport } from '#hawser/drivers';
import {
  describeWithNats,
  NatsServer,
} from '../../../../apps/hawser/src/test-support/nats-server.js';
import { CAPABILITY_REPORTS_SUBJECT, NatsCapabilityReports } from './nats-capability-reports.js';

const report = (backend: string, freeGb: number): BackendStatsReport =>
  ({
    backend,
    availabilityZone: 'az-1',
    pools: [
      {
        name: 'fast',
        capabilities: {
          pool_name: 'fast',
          free_capacity_gb: freeGb,
          timestamp: new Date().toISOString(),
        },
      },
    ],
  }) as unknown as BackendStatsReport;

/** Collects what a handler receives; `next(n)` waits until n reports have arrived. */
const collector = () => {
  const received: BackendStatsReport[] = [];
  let wake = () => {};
  return {
    received,
    handler: (r: BackendStatsReport) => {
      received.push(r);
      wake();
    },
    async next(count: number, timeoutMs = 5_000): Promise<BackendStatsReport[]> {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline)
          throw new Error(`received ${received.length} of ${count} reports`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 50);
        });
      }
      return received;
    },
  };
};

describeWithNats('capability reports over NATS', () => {
  let nats: NatsServer;
  const opened: NatsCapabilityReports[] = [];

  const open = async (name: string, subscribe?: (r: BackendStatsReport) => void) => {
    const reports = new NatsCapabilityReports({ servers: [nats.url], name });
    opened.push(reports);
    if (subscribe) reports.subscribe(subscribe);
    await reports.onModuleInit();
    return reports;
  };

  beforeAll(async () => {
    Logger.overrideLogger(false); // connection status lines; the assertions say what matters
    nats = await NatsServer.start();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((r) => r.close()));
  });
  afterAll(async () => {
    await nats?.stop();
  });

  it('given a scheduler subscribed, when a share node publishes a report, then the scheduler receives it unchanged', async () => {
    const scheduler = collector();
    await open('scheduler', scheduler.handler);
    const node = await open('node-a');

    const sent = report('node-a@a1', 900);
    await node.publish(sent);

    expect(await scheduler.next(1)).toEqual([sent]);
  });

  it('given two schedulers, when reports are published, then each scheduler receives every report', async () => {
    const first = collector();
    const second = collector();
    await open('scheduler-1', first.handler);
    await open('scheduler-2', second.handler);
    const node = await open('node-a');

    for (let i = 0; i < 5; i++) await node.publish(report('node-a@a1', 900 - i));

    expect((await first.next(5)).map((r) => r.pools[0]?.capabilities.free_capacity_gb)).toEqual([
      900, 899, 898, 897, 896,
    ]);
    expect(await second.next(5)).toEqual(first.received);
  });

  it('given a malformed message on the subject, when valid reports follow, then only the valid ones reach the handler', async () => {
    const scheduler = collector();
    await open('scheduler', scheduler.handler);
    const node = await open('node-a');
    const raw = await connect({ servers: nats.url });
    try {
      raw.publish(
        CAPABILITY_REPORTS_SUBJECT,
        JSON.stringify({ pattern: CAPABILITY_REPORTS_SUBJECT, data: { backend: 7 } }),
      );
      raw.publish(CAPABILITY_REPORTS_SUBJECT, 'not json');
      await raw.flush();
    } finally {
      await raw.close();
    }
    await node.publish(report('node-a@a1', 800));

    expect((await scheduler.next(1)).map((r) => r.backend)).toEqual(['node-a@a1']);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(scheduler.received).toHaveLength(1);
  });

  it('given an unsubscribed handler and a closed publisher, when reports are published, then nothing more arrives and publishing after close does nothing', async () => {
    const kept = collector();
    const dropped = collector();
    const scheduler = await open('scheduler', kept.handler);
    const unsubscribe = scheduler.subscribe(dropped.handler);
    const node = await open('node-a');
    await node.publish(report('node-a@a1', 700));
    await dropped.next(1);

    unsubscribe();
    await node.publish(report('node-a@a1', 600));
    await kept.next(2);
    await node.close();
    await node.publish(report('node-a@a1', 500));
    await new Promise((resolve) => setTimeout(resolve, 100));

    expect(dropped.received).toHaveLength(1);
    expect(kept.received).toHaveLength(2);
  });

  it('given NATS restarts, when the node publishes after the restart, then the scheduler receives it over the re-established subscription', async () => {
    const scheduler = collector();
    await open('scheduler', scheduler.handler);
    const node = await open('node-a');
    await nats.stop();
    nats = await NatsServer.start(nats.port);

    // Reports are telemetry: one sent while the connections come back may be lost, the next arrives.
    const deadline = Date.now() + 10_000;
    while (scheduler.received.length === 0 && Date.now() < deadline) {
      // While the connection is down, publishing fails (the share node logs it and goes on).
      await node.publish(report('node-a@a1', 400)).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }

    expect(scheduler.received[0]?.backend).toBe('node-a@a1');
  }, 15_000);

  it('given no NATS server at the URL, when the transport starts, then it fails at once', async () => {
    const reports = new NatsCapabilityReports({
      servers: [nats.url.replace(/:\d+$/, ':1')],
      name: 'nowhere',
    });
    opened.push(reports);
    reports.subscribe(() => undefined);
    await expect(reports.onModuleInit()).rejects.toThrow();
  });
});
