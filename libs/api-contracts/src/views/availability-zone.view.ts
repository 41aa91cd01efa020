import type { AvailabilityZoneDocument } from '#hawser/projections';

/** Manila's availability zone (reference 1.8): the same four keys at every microversion. */
export const availabilityZoneView = (zone: AvailabilityZoneDocument) => ({
  id: zone.id,
  name: zone.name,
  created_at: zone.created_at,
  updated_at: zone.updated_at,
});
