import { ipNetworkKey, sameGranteeAs } from './access-ip-network.js';

describe('ip rule networks', () => {
  it.each([
    ['10.20.30.40', '10.20.30.40/32'],
    ['10.0.0.0/8', '10.0.0.0/8'],
    ['2001:DB8:0:0:0:0:0:1', '[2001:db8::1]/128'],
    ['::ffff:1.2.3.4/128', '[::ffff:102:304]/128'],
  ])('writes %s as %s', (accessTo, key) => expect(ipNetworkKey(accessTo)).toBe(key));

  it('gives no network for what is not an address', () =>
    expect(ipNetworkKey('alice')).toBeUndefined());

  it('compares ip rules by their networks', () => {
    expect(sameGranteeAs('ip', '10.0.0.1')('10.0.0.1/32')).toBe(true);
    expect(sameGranteeAs('ip', '2001:db8::1/128')('2001:DB8:0:0:0:0:0:1')).toBe(true);
    expect(sameGranteeAs('ip', '10.0.0.1')('10.0.0.2')).toBe(false);
    expect(sameGranteeAs('ip', '10.0.0.0/8')('10.0.0.0/16')).toBe(false);
  });

  it('compares other types by their text', () => {
    expect(sameGranteeAs('user', 'alice')('alice')).toBe(true);
    expect(sameGranteeAs('user', '10.0.0.1')('10.0.0.1/32')).toBe(false);
  });
});
