import { timeOrderedId } from './time-ordered-id.js';

describe('timeOrderedId', () => {
  it('makes UUIDs of version 7 (RFC 9562), as Manila clients accept any UUID', () => {
    expect(timeOrderedId()).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('makes ids that sort in the order they were made, within a millisecond too', () => {
    const ids = Array.from({ length: 2_000 }, () => timeOrderedId());

    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('gives every id random bits of its own, across the draws of random bytes', () => {
    // The last 48 bits are random in every id; 2,000 ids span several draws of 256.
    const tails = Array.from({ length: 2_000 }, () => timeOrderedId().slice(-12));

    expect(new Set(tails).size).toBe(tails.length);
  });

  it('starts an id with the time it was made', () => {
    const before = Date.now();
    const id = timeOrderedId();
    const after = Date.now();

    const madeAt = Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16);
    expect(madeAt).toBeGreaterThanOrEqual(before);
    expect(madeAt).toBeLessThanOrEqual(after);
  });
});
