import { newResourceId } from './new-resource-id.js';

describe('newResourceId', () => {
  it('makes UUIDs of version 7 (RFC 9562), as Manila clients accept any UUID', () => {
    expect(newResourceId()).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('makes ids that sort in the order they were made, within a millisecond too', () => {
    const ids = Array.from({ length: 2_000 }, () => newResourceId());

    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('starts an id with the time it was made', () => {
    const before = Date.now();
    const id = newResourceId();
    const after = Date.now();

    const madeAt = Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16);
    expect(madeAt).toBeGreaterThanOrEqual(before);
    expect(madeAt).toBeLessThanOrEqual(after);
  });
});
