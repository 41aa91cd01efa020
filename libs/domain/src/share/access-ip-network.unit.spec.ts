import { ipNetworkKey, ipNetworkRefusal, sameGranteeAs } from './access-ip-network.js';

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

  it.each([
    '10.0.0.1',
    '10.0.0.0/24',
    '0.0.0.0/0',
    '10.0.0.0/08',
    '2001:db8::/64',
    '::/0',
    '::ffff:10.0.0.0/120',
    '2001:db8:0:0:0:0:0:1/128',
  ])('takes %s as a network', (value) => expect(ipNetworkRefusal(value, true)).toBeUndefined());

  it.each([
    ['10.0.0.1/24', '10.0.0.1/24 has host bits set'],
    ['2001:db8::1/64', '2001:db8::1/64 has host bits set'],
    ['::ffff:10.0.0.1/120', '::ffff:10.0.0.1/120 has host bits set'],
    ['10.0.0.256', "'10.0.0.256' does not appear to be an IPv4 or IPv6 network"],
    ['10.0.0.0/33', "'10.0.0.0/33' does not appear to be an IPv4 or IPv6 network"],
    ['2001:db8::/129', "'2001:db8::/129' does not appear to be an IPv4 or IPv6 network"],
    ['10.0.0.0/8/8', "'10.0.0.0/8/8' does not appear to be an IPv4 or IPv6 network"],
    ['fe80::1%eth0', "'fe80::1%eth0': an IPv6 zone is not taken in an access rule"],
  ])("refuses %s in Python's ipaddress words: %s", (value, refusal) =>
    expect(ipNetworkRefusal(value, true)).toBe(refusal),
  );

  it('refuses IPv6 where it is not enabled', () =>
    expect(ipNetworkRefusal('2001:db8::1', false)).toBe(
      "'2001:db8::1' does not appear to be an IPv4 or IPv6 network",
    ));

  it('gives no network for a zoned address, which no rule holds', () =>
    expect(ipNetworkKey('fe80::1%eth0')).toBeUndefined());
});
