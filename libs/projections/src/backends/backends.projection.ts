import { BACKEND_STREAM_PREFIX, uuidV5 } from '#hawser/domain';
import type { RecordedEvent } from '#hawser/eventstore';
import type { Projection, ProjectionContext } from '#hawser/read-models';
import { backendEvents } from '../../../../eventstore/decoders.js';

export const BACKENDS = 'backends';
export const AVAILABILITY_ZONES = 'availability_zones';

export interface BackendDocument {
  id: string;
  backend: string;
  host: string;
  availability_zone: string;
  replication_domain: string | null;
  driver: string;
  pools: string[];
  /** An admin disabled its manila-share service (absent in documents written before). */
  disabled?: boolean;
  disabled_reason?: string | null;
  /** The share node serving it (absent when registered before nodes were named). */
  node?: string;
  /** Its node started without it; the scheduler expects no reports from it. */
  removed?: boolean;
  created_at: string;
  updated_at: string;
}

export interface AvailabilityZoneDocument {
  id: string;
  name: string;
  created_at: string;
  updated_at: string;
}

/** Namespace of availability-zone ids: a zone's id is derived from its name. */
const AZ_NAMESPACE = '9d2f7a3e-3c41-4b8e-8f0a-6a1d5c2b7e94';
export const availabilityZoneId = (name: string): string => uuidV5(name, AZ_NAMESPACE);

/** Back ends served by share nodes, and the availability zones they bring (reference 1.8). */
export const backendsProjection: Projection = {
  name: 'backends',
  collections: [BACKENDS, AVAILABILITY_ZONES],
  filter: { streamPrefixes: [BACKEND_STREAM_PREFIX] },
  async handle(recorded: RecordedEvent, ctx: ProjectionContext): Promise<void> {
    const event = backendEvents.decode(recorded);
    if (event.type === 'BackendRemoved') {
      const backend = await ctx.get<BackendDocument>(BACKENDS, event.data.backend);
      if (!backend) return;
      await ctx.put(BACKENDS, {
        ...backend,
        removed: true,
        updated_at: event.data.removedAt,
      } satisfies BackendDocument);
      return;
    }
    if (event.type !== 'BackendRegistered') {
      const backend = await ctx.get<BackendDocument>(BACKENDS, event.data.backend);
      if (!backend) return;
      const disabled = event.type === 'BackendServiceDisabled';
      await ctx.put(BACKENDS, {
        ...backend,
        disabled,
        disabled_reason: disabled ? event.data.reason : null,
        updated_at: disabled ? event.data.disabledAt : event.data.enabledAt,
      } satisfies BackendDocument);
      return;
    }
    const data = event.data;
    const previous = await ctx.get<BackendDocument>(BACKENDS, data.backend);
    await ctx.put(BACKENDS, {
      disabled: previous?.disabled ?? false,
      disabled_reason: previous?.disabled_reason ?? null,
      id: data.backend,
      backend: data.backend,
      host: data.backend.split('@')[0] ?? data.backend,
      availability_zone: data.availabilityZone,
      replication_domain: data.replicationDomain,
      driver: data.driver,
      pools: [...data.pools],
      ...(data.node !== undefined && { node: data.node }),
      removed: false,
      created_at: previous?.created_at ?? data.registeredAt,
      updated_at: data.registeredAt,
    } satisfies BackendDocument);
    const zoneId = availabilityZoneId(data.availabilityZone);
    const zone = await ctx.get<AvailabilityZoneDocument>(AVAILABILITY_ZONES, zoneId);
    if (!zone) {
      await ctx.put(AVAILABILITY_ZONES, {
        id: zoneId,
        name: data.availabilityZone,
        created_at: data.registeredAt,
        updated_at: data.registeredAt,
      } satisfies AvailabilityZoneDocument);
    }
  },
};
