import type { ShareTypeDocument } from '#hawser/projections';
import { shareTypeView } from './share-type.view.js';
import type { ViewContext } from './view-context.js';

const type = {
  id: 'a5b3c1d2-0000-4000-8000-000000000001',
  revision: 1,
  name: 'default',
  description: null,
  extra_specs: { driver_handles_share_servers: 'False', snapshot_support: 'True', vendor: 'x' },
  is_public: true,
  projects: [],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
} as Omit<ShareTypeDocument, 'state'> as ShareTypeDocument;

const context = (isAdmin: boolean, version: [number, number] = [2, 72]): ViewContext => ({
  version,
  isAdmin,
  baseUrl: 'http://hawser',
  urlProjectId: undefined,
});

describe('share type view', () => {
  it('shows a tenant its visible specs, the missing inferred ones as JSON false (2.24+)', () => {
    expect(shareTypeView(type, context(false), undefined).extra_specs).toEqual({
      driver_handles_share_servers: 'False',
      snapshot_support: 'True',
      create_share_from_snapshot_support: false,
      revert_to_snapshot_support: false,
      mount_snapshot_support: false,
    });
    expect(shareTypeView(type, context(false, [2, 23]), undefined).extra_specs).toEqual({
      driver_handles_share_servers: 'False',
      snapshot_support: 'True',
    });
  });

  it('shows an admin every spec as stored', () => {
    expect(shareTypeView(type, context(true), undefined).extra_specs).toEqual(type.extra_specs);
  });
});
