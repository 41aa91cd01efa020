import { availabilityZoneView } from './availability-zone.view.js';

describe('availability zone view (reference 1.8)', () => {
  it('is exactly {id, name, created_at, updated_at}', () => {
    const zone = {
      id: 'c5d6a0d2-2b1f-5e0c-9a3b-0f1e2d3c4b5a',
      name: 'nova',
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    };
    expect(availabilityZoneView(zone)).toEqual(zone);
  });
});
