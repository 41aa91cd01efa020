import type { ShareInstanceDocument } from './share.documents.js';
import { shareInstanceDocumentOf, toStoredShareInstance } from './stored-share-instance.js';

const available: ShareInstanceDocument = {
  id: 'i1',
  revision: 3,
  share_id: 's1',
  project_id: 'p1',
  status: 'available',
  host: 'n@b#p',
  availability_zone: 'az-1',
  replica_state: null,
  progress: '100%',
  share_type_id: 't1',
  share_network_id: null,
  share_server_id: null,
  access_rules_status: 'active',
  cast_rules_to_readonly: false,
  export_locations: [
    { id: 'e1', path: 'n:/p/i1', preferred: true, is_admin_only: false, share_instance_id: 'i1' },
    { id: 'e2', path: 'a:/p/i1', preferred: false, is_admin_only: true, share_instance_id: 'i1' },
  ],
  pending_operation: null,
  created_at: '2026-11-26T07:00:00.000Z',
  updated_at: '2026-11-26T07:00:01.000Z',
};

const replicaBeingCreated: ShareInstanceDocument = {
  ...available,
  id: 'i2',
  status: 'creating',
  availability_zone: null,
  replica_state: 'out_of_sync',
  progress: null,
  share_type_id: null,
  access_rules_status: 'syncing',
  cast_rules_to_readonly: true,
  export_locations: [],
  pending_operation: { operation: 'create_share_replica', command_id: 'c2' },
};

/** As it travels through the store: JSON text. */
const stored = (doc: ReturnType<typeof toStoredShareInstance>) => JSON.parse(JSON.stringify(doc));

describe('stored share instances', () => {
  it.each([
    ['an available instance', available],
    ['a replica being created', replicaBeingCreated],
  ])('given %s, when it is stored and read, then the same document comes back', (_, doc) => {
    expect(shareInstanceDocumentOf(stored(toStoredShareInstance(doc)))).toStrictEqual(doc);
  });

  it('given an available instance, when it is stored, then it holds no default and its locations do not repeat its id', () => {
    expect(stored(toStoredShareInstance(available))).toStrictEqual({
      id: 'i1',
      revision: 3,
      share_id: 's1',
      project_id: 'p1',
      status: 'available',
      host: 'n@b#p',
      availability_zone: 'az-1',
      progress: '100%',
      share_type_id: 't1',
      export_locations: [
        { id: 'e1', path: 'n:/p/i1', preferred: true },
        { id: 'e2', path: 'a:/p/i1', is_admin_only: true },
      ],
      created_at: '2026-11-26T07:00:00.000Z',
      updated_at: '2026-11-26T07:00:01.000Z',
    });
  });

  it('given an instance stored whole (before instances were stored without defaults), when it is read, then it reads as it is', () => {
    expect(shareInstanceDocumentOf(available)).toStrictEqual(available);
  });
});
