import { withBooleanSpecsAsText } from './extra-specs-input.js';

describe('extra specs as the manila CLI sends them', () => {
  it('turns JSON booleans into Manila stored text (True/False) and leaves the rest', () => {
    expect(
      withBooleanSpecsAsText({
        name: 'default',
        extra_specs: { driver_handles_share_servers: false, snapshot_support: true, x: 'y', n: 1 },
      }),
    ).toEqual({
      name: 'default',
      extra_specs: {
        driver_handles_share_servers: 'False',
        snapshot_support: 'True',
        x: 'y',
        n: 1,
      },
    });
  });

  it('leaves bodies without an extra_specs object for validation to reject', () => {
    expect(withBooleanSpecsAsText({ extra_specs: [true] })).toEqual({ extra_specs: [true] });
    expect(withBooleanSpecsAsText('text')).toBe('text');
    expect(withBooleanSpecsAsText(null)).toBeNull();
  });
});
