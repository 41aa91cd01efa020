import { randomUUID } from 'node:crypto';
import type { EventMetadata, EventStore, NewEvent } from '#hawser/eventstore';

/** Events in one seeded share stream: requested, scheduled, driver started, created, metadata. */
export const EVENTS_PER_SHARE = 5;

const BASE_TIME = Date.parse('2026-01-01T00:00:00.000Z');
const PROJECTS = 50;
const BACKENDS = 20;
const ZONES = ['nova', 'zone-b', 'zone-c'];

/** A stable id per share index, so later sections can find a seeded share again. */
export const seededShareId = (index: number): string =>
  `00000000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`;

export const seededShareStream = (index: number): string => `share-${seededShareId(index)}`;

const at = (index: number, step: number): string =>
  new Date(BASE_TIME + index * 1_000 + step * 150).toISOString();

/**
 * The life of one share as the create flow writes it, in the shapes of the domain's share
 * events. One function on purpose: when the event catalogue settles, only this changes.
 */
export function shareLifeEvents(index: number): NewEvent[] {
  const shareId = seededShareId(index);
  const instanceId = `10000000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`;
  const projectId = `project-${index % PROJECTS}`;
  const userId = `user-${index % (PROJECTS * 4)}`;
  const zone = ZONES[index % ZONES.length] as string;
  const host = `node${index % BACKENDS}@lvm#pool${index % 3}`;
  const size = 1 + (index % 100);
  const createCommandId = randomUUID();
  const metadata = (commandId: string): EventMetadata => ({
    $correlationId: shareId,
    $causationId: commandId,
    commandId,
    userId,
    projectId,
    requestId: `req-${commandId}`,
    microversion: '2.65',
  });
  const requestCommandId = randomUUID();
  const scheduleCommandId = randomUUID();
  return [
    {
      id: randomUUID(),
      type: 'ShareRequested',
      data: {
        shareId,
        instanceId,
        projectId,
        userId,
        name: `share-${index}`,
        description: index % 4 === 0 ? `seeded share ${index}` : null,
        size,
        shareProto: index % 5 === 0 ? 'CIFS' : 'NFS',
        shareType: {
          id: '20000000-0000-4000-8000-000000000001',
          name: 'default',
          extraSpecs: { driver_handles_share_servers: 'False', snapshot_support: 'True' },
        },
        capabilities: {
          snapshotSupport: true,
          createShareFromSnapshotSupport: false,
          revertToSnapshotSupport: false,
          mountSnapshotSupport: false,
          replicationType: null,
        },
        availabilityZone: index % 2 === 0 ? zone : null,
        metadata: { app: `app-${index % 30}` },
        isPublic: false,
        snapshotId: null,
        schedulerHints: null,
        createdAt: at(index, 0),
      },
      metadata: metadata(requestCommandId),
    },
    {
      id: randomUUID(),
      type: 'ShareScheduled',
      data: { instanceId, host, availabilityZone: zone, size, scheduledAt: at(index, 1) },
      metadata: metadata(scheduleCommandId),
    },
    {
      id: randomUUID(),
      type: 'ShareDriverOperationStarted',
      data: {
        instanceId,
        operation: 'create_share',
        commandId: createCommandId,
        host,
        startedAt: at(index, 2),
      },
      metadata: metadata(createCommandId),
    },
    {
      id: randomUUID(),
      type: 'ShareCreated',
      data: {
        instanceId,
        commandId: createCommandId,
        exportLocations: [
          {
            id: randomUUID(),
            path: `10.0.${index % 250}.${(index >> 8) % 250}:/shares/share-${instanceId}`,
            preferred: true,
            isAdminOnly: false,
          },
        ],
        createdAt: at(index, 3),
      },
      metadata: metadata(createCommandId),
    },
    {
      id: randomUUID(),
      type: 'ShareMetadataChanged',
      data: { set: { owner: `team-${index % 12}` }, unset: [], updatedAt: at(index, 4) },
      metadata: metadata(randomUUID()),
    },
  ];
}

/**
 * Appends `count` events as share streams of five (the last may be shorter), one append per
 * stream, as the create flow's commands would leave them. Returns the streams written.
 */
export async function seedShareEvents(
  store: EventStore,
  count: number,
  firstIndex = 0,
): Promise<{ streams: number; events: number }> {
  let events = 0;
  let index = firstIndex;
  while (events < count) {
    const life = shareLifeEvents(index).slice(0, count - events);
    await store.append(seededShareStream(index), life, { expectedRevision: 'no_stream' });
    events += life.length;
    index += 1;
  }
  return { streams: index - firstIndex, events };
}
