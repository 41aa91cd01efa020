import { snapshotDeletedV2, type SnapshotDeletedV1 } from './snapshot-deleted.upcaster.js';

describe('SnapshotDeleted v1 → v2', () => {
  it('given a v1 event without the project, then v2 names no project (null)', () => {
    const v1: SnapshotDeletedV1 = { snapshotId: 'snap-1', deletedAt: '2026-01-01T00:00:00.000Z' };

    expect(snapshotDeletedV2(v1)).toEqual({
      snapshotId: 'snap-1',
      projectId: null,
      deletedAt: '2026-01-01T00:00:00.000Z',
    });
  });

  it('given a v1 event that carried the project, then v2 keeps it', () => {
    const v1: SnapshotDeletedV1 = {
      snapshotId: 'snap-2',
      projectId: 'project-a',
      deletedAt: '2026-01-02T00:00:00.000Z',
    };

    expect(snapshotDeletedV2(v1)).toEqual({
      snapshotId: 'snap-2',
      projectId: 'project-a',
      deletedAt: '2026-01-02T00:00:00.000Z',
    });
  });
});
