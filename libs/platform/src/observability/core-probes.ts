import fs from 'node:fs';
import type { EventStore } from '#hawser/eventstore';
import type { ProjectionRunner } from '#hawser/read-models';
import type { HawserConfig } from '../config/hawser-config.js';
import type { ConnectedCapabilityReports } from '../transport/capability-reports.js';
import type { ProbeResult } from './health-probes.js';
import { lastAppendFailure } from './instrumented-event-store.js';
import type { LogFollowerLag } from './log-follower-lag.js';

/**
 * The event store answers, the last append was written (a full or read-only disk makes it
 * fail until an append succeeds again) and, for SQLite, its directory is writable.
 */
export const eventStoreProbe = async (
  events: EventStore,
  config: HawserConfig,
): Promise<ProbeResult> => {
  const head = await events.headPosition();
  const failure = lastAppendFailure(events);
  if (failure) return { ready: false, head, lastAppendFailed: failure };
  if (!config.eventstoreUrl) {
    try {
      fs.accessSync(config.dataDir, fs.constants.W_OK);
    } catch {
      return { ready: false, head, error: `data directory ${config.dataDir} is not writable` };
    }
  }
  return { ready: true, head };
};

/** Every projection is running and has dealt with every event older than `maxLagS`. */
export const projectionsProbe = async (
  runner: ProjectionRunner,
  lag: LogFollowerLag,
  maxLagS: number,
): Promise<ProbeResult> => {
  const failing = runner.status().filter((p) => p.error !== undefined);
  const behind = (await lag.measure())
    .filter((f) => f.kind === 'projection' && f.seconds > maxLagS)
    .map((f) => ({ name: f.name, events: f.events, seconds: Math.round(f.seconds) }));
  return {
    ready: failing.length === 0 && behind.length === 0,
    maxLagSeconds: maxLagS,
    ...(behind.length > 0 && { behind }),
    ...(failing.length > 0 && { failing: failing.map((p) => ({ name: p.name, error: p.error })) }),
  };
};

/** In the multi-process mode: NATS, which carries the capability reports, is connected. */
export const natsProbe = (nats: ConnectedCapabilityReports): ProbeResult => ({
  ready: nats.connected,
});
