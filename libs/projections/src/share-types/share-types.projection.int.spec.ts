import { projectionSpec } from '../test-support/projection-spec.js';
import {
  SHARE_TYPES,
  shareTypesProjection,
  type ShareTypeDocument,
} from './share-types.projection.js';

const at = '2026-11-22T10:00:00.000Z';

describe('share types projection', () => {
  it('given a type, when specs change and access is granted, then the document follows', () =>
    projectionSpec(shareTypesProjection)
      .given({
        'sharetype-t1': [
          {
            type: 'ShareTypeCreated',
            data: {
              shareTypeId: 't1',
              name: 'gold',
              description: null,
              extraSpecs: { driver_handles_share_servers: 'False' },
              isPublic: false,
              createdAt: at,
            },
          },
        ],
      })
      .when({
        'sharetype-t1': [
          {
            type: 'ShareTypeExtraSpecsSet',
            data: { shareTypeId: 't1', extraSpecs: { snapshot_support: 'True' }, updatedAt: at },
          },
          { type: 'ShareTypeAccessAdded', data: { shareTypeId: 't1', projectId: 'p9' } },
        ],
      })
      .then(async (docs) => {
        expect(await docs.get<ShareTypeDocument>(SHARE_TYPES, 't1')).toMatchObject({
          name: 'gold',
          is_public: false,
          projects: ['p9'],
          extra_specs: { driver_handles_share_servers: 'False', snapshot_support: 'True' },
        });
      }));

  it('given a deleted type, then it is not listed', () =>
    projectionSpec(shareTypesProjection)
      .given({
        'sharetype-t1': [
          {
            type: 'ShareTypeCreated',
            data: {
              shareTypeId: 't1',
              name: 'gold',
              description: null,
              extraSpecs: {},
              isPublic: true,
              createdAt: at,
            },
          },
          { type: 'ShareTypeDeleted', data: { shareTypeId: 't1', deletedAt: at } },
        ],
      })
      .then(async (docs) => {
        expect(await docs.find(SHARE_TYPES, {})).toEqual([]);
      }));
});
