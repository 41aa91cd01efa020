import type { Filter } from '../document-store.port.js';
import { mongoFilter } from './mongodb-filter.js';

describe('MongoDB filters', () => {
  it('keep fields named like object members as fields, __proto__ included', () => {
    const filter: Filter = JSON.parse(
      '{"__proto__":{"$ne":"x"},"constructor":"y","metadata.toString":{"$exists":false},"id":"s1"}',
    );

    const query = mongoFilter(filter);

    expect(Object.getPrototypeOf(query)).toBe(Object.prototype);
    expect(Object.entries(query)).toEqual([
      ['__proto__', { $ne: 'x' }],
      ['constructor', 'y'],
      ['metadata.toString', { $exists: false }],
      ['_id', 's1'],
    ]);
  });
});
