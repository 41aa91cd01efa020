import type { ShareTypeDocument } from '#hawser/projections';
import { shareTypeView } from './share-type.view.js';
import type { ViewContext } from './view-context.js';
import { type FieldRow, itShowsTheTableKeys } from './test-support/view-context.js';

/** Manila's share type view, reference 1.6 (`api/views/types.py`). */
const SHARE_TYPE: readonly FieldRow[] = [
  { key: 'id' },
  { key: 'name' },
  { key: 'extra_specs' },
  { key: 'required_extra_specs' },
  { key: 'os-share-type-access:is_public', until: '2.6' },
  { key: 'share_type_access:is_public', from: '2.7' },
  { key: 'description', from: '2.41' },
  { key: 'is_default', from: '2.46' },
];

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

  it('shows a tenant the standard optional specs, provisioning sizes included, and no others', () => {
    const sized = {
      ...type,
      extra_specs: {
        driver_handles_share_servers: 'False',
        replication_type: 'dr',
        availability_zones: 'az-1',
        'provisioning:max_share_size': '10',
        'provisioning:min_share_size': '1',
        'capabilities:dedupe': '<is> True',
      },
    };
    expect(
      Object.keys(shareTypeView(sized, context(false), undefined).extra_specs as object),
    ).toEqual([
      'driver_handles_share_servers',
      'replication_type',
      'availability_zones',
      'provisioning:max_share_size',
      'provisioning:min_share_size',
      'snapshot_support',
      'create_share_from_snapshot_support',
      'revert_to_snapshot_support',
      'mount_snapshot_support',
    ]);
  });

  it('shows an admin every spec as stored', () => {
    expect(shareTypeView(type, context(true), undefined).extra_specs).toEqual(type.extra_specs);
  });
});

describe('share type view: the field set per microversion', () => {
  itShowsTheTableKeys(SHARE_TYPE, (ctx) => shareTypeView(type, ctx, undefined));

  it('carries is_public under the extension name until 2.6, the core name from 2.7', () => {
    const privateType = { ...type, is_public: false };
    expect(shareTypeView(privateType, context(false, [2, 6]), undefined)).toMatchObject({
      'os-share-type-access:is_public': false,
    });
    expect(shareTypeView(privateType, context(false, [2, 7]), undefined)).toMatchObject({
      'share_type_access:is_public': false,
    });
  });

  it('puts driver_handles_share_servers alone in required_extra_specs', () => {
    expect(shareTypeView(type, context(true), undefined).required_extra_specs).toEqual({
      driver_handles_share_servers: 'False',
    });
  });

  it('marks the configured default type with is_default from 2.46', () => {
    expect(shareTypeView(type, context(false, [2, 46]), 'default').is_default).toBe(true);
    expect(shareTypeView(type, context(false, [2, 46]), 'other').is_default).toBe(false);
    expect(shareTypeView(type, context(false, [2, 46]), undefined).is_default).toBe(false);
  });

  it('shows the description from 2.41', () => {
    const described = { ...type, description: 'general purpose' };
    expect(shareTypeView(described, context(false, [2, 41]), undefined).description).toBe(
      'general purpose',
    );
  });
});
