import { percentOf } from './progress';

describe('percentOf: a progress text as a bar value', () => {
  it('given the texts Hawser writes, when read, then they are percentages', () => {
    expect(percentOf('0%')).toBe(0);
    expect(percentOf('40%')).toBe(40);
    expect(percentOf('100%')).toBe(100);
    expect(percentOf(' 12.5 % ')).toBe(12.5);
  });

  it('given no progress or text that is not one, when read, then there is no bar', () => {
    expect(percentOf(null)).toBeNull();
    expect(percentOf(undefined)).toBeNull();
    expect(percentOf('soon')).toBeNull();
    expect(percentOf('')).toBeNull();
  });

  it('given a value out of range, when read, then it is held between 0 and 100', () => {
    expect(percentOf('250%')).toBe(100);
  });
});
