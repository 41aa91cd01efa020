import {
  snapshotInstanceDetailView,
  snapshotInstanceSummaryView,
  type SnapshotInstanceDocument,
} from './snapshot-instance.view.js';

const doc: SnapshotInstanceDocument = {
  id: 'si1',
  snapshot_id: 'snap1',
  status: 'available',
  created_at: '2026-11-22T10:00:00.000000',
  updated_at: '2026-11-22T10:05:00.000000',
  share_id: 's1',
  share_instance_id: 'i1',
  progress: '100%',
  provider_location: 'simulated:b1/si1',
  export_locations: [],
};

// Manila's view builder has one field set for every microversion the API exists in (2.19+).
describe('snapshot instance views (2.19+, admin only)', () => {
  it('shows id, snapshot_id and status in the summary', () =>
    expect(snapshotInstanceSummaryView(doc)).toEqual({
      id: 'si1',
      snapshot_id: 'snap1',
      status: 'available',
    }));

  it("shows Manila's detail fields, exactly", () =>
    expect(Object.keys(snapshotInstanceDetailView(doc)).sort()).toEqual(
      [
        'created_at',
        'id',
        'progress',
        'provider_location',
        'share_id',
        'share_instance_id',
        'snapshot_id',
        'status',
        'updated_at',
      ].sort(),
    ));
});
