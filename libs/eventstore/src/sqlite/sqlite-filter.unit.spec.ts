import { filterClause } from './sqlite-filter.js';

describe('filterClause', () => {
  it('given no filter, then nothing is constrained', () => {
    expect(filterClause(undefined)).toEqual({ sql: '', params: [], shape: '0:0' });
  });

  it('given prefixes and types, then either prefix and either type must match', () => {
    const clause = filterClause({ streamPrefixes: ['share-', 'quota-'], eventTypes: ['A', 'B'] });

    expect(clause).toEqual({
      sql: ' AND (instr(stream_id, ?) = 1 OR instr(stream_id, ?) = 1) AND type IN (?, ?)',
      params: ['share-', 'quota-', 'A', 'B'],
      shape: '2:2',
    });
  });

  it('given the same filter object again, then its clause is the one built before; another object gets its own', () => {
    const filter = { streamPrefixes: ['share-'] };
    const first = filterClause(filter);

    const again = filterClause(filter);
    const other = filterClause({ streamPrefixes: ['quota-'] });

    expect(again).toBe(first);
    expect(other.params).toEqual(['quota-']);
    expect(other.shape).toBe(first.shape);
  });
});
