import { manilaTimestamp } from './manila-timestamp.js';

describe("a stored time as Manila prints it (oslo's PERFECT_TIME_FORMAT)", () => {
  it.each([
    ['2026-11-22T10:00:00.123Z', '2026-11-22T10:00:00.123000'],
    ['2026-11-22T10:00:00.000Z', '2026-11-22T10:00:00.000000'],
    ['2026-11-22T10:00:00Z', '2026-11-22T10:00:00.000000'],
    ['2026-11-22T10:00:00.123456', '2026-11-22T10:00:00.123456'],
    ['2026-11-22T10:00:00.5+00:00', '2026-11-22T10:00:00.500000'],
  ])('given %s, prints %s (six microsecond digits, no zone)', (stored, printed) => {
    expect(manilaTimestamp(stored)).toBe(printed);
  });
});
