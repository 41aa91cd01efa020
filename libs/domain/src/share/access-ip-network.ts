import { isIP } from 'node:net';

/** An IPv6 address written with its zone (`fe80::1%eth0`). */
const ZONED = /%/;

/** The address's bits as one number, for the host-bits check. */
const bitsOf = (address: string, family: 4 | 6): bigint => {
  if (family === 4) {
    return address.split('.').reduce((value, octet) => (value << 8n) | BigInt(octet), 0n);
  }
  const [head = '', tail = ''] = address.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const [before, after] = [groups(head), groups(tail)];
  // An IPv4 tail (`::ffff:10.0.0.1`) is two groups.
  const expand = (list: string[]) =>
    list.flatMap((group) => {
      if (!group.includes('.')) return [group];
      const v4 = bitsOf(group, 4);
      return [(v4 >> 16n).toString(16), (v4 & 0xffffn).toString(16)];
    });
  const [first, last] = [expand(before), expand(after)];
  const missing = address.includes('::') ? 8 - first.length - last.length : 0;
  return [...first, ...Array<string>(missing).fill('0'), ...last].reduce(
    (value, group) => (value << 16n) | BigInt(`0x${group}`),
    0n,
  );
};

/**
 * Why an `ip` rule's value is no network, in the words of Python's `ipaddress.ip_network`, which
 * Manila checks it with (`validate_ip`); undefined when it is one. An IPv6 zone (`%eth0`) names an
 * interface of the host that reads the address, not a client, and an export cannot hold it: it is
 * refused, where Manila takes it.
 */
export const ipNetworkRefusal = (value: string, ipv6: boolean): string | undefined => {
  const notANetwork = `'${value}' does not appear to be an IPv4 or IPv6 network`;
  const [address, prefix, ...rest] = value.split('/');
  if (rest.length > 0 || address === undefined) return notANetwork;
  const family = isIP(address);
  if (family === 0 || (family === 6 && !ipv6)) return notANetwork;
  if (ZONED.test(address)) return `'${value}': an IPv6 zone is not taken in an access rule`;
  if (prefix === undefined) return undefined;
  const width = family === 4 ? 32 : 128;
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > width) return notANetwork;
  const hostBits = (1n << BigInt(width - Number(prefix))) - 1n;
  return (bitsOf(address, family === 4 ? 4 : 6) & hostBits) === 0n
    ? undefined
    : `${value} has host bits set`;
};

/**
 * The network an `ip` rule names, written one way: `10.20.30.40` and `10.20.30.40/32` are the
 * same network, and so are IPv6 addresses in any notation (`2001:DB8::1`, `2001:db8:0:0:0:0:0:1`).
 * Manila refuses a rule whose network equals an existing rule's (`ipaddress.ip_network`
 * equality). Undefined for what is not an address.
 */
export const ipNetworkKey = (accessTo: string): string | undefined => {
  const [address, prefix] = accessTo.split('/');
  if (address === undefined) return undefined;
  const family = isIP(address);
  if (family === 0 || ZONED.test(address)) return undefined;
  const bits = prefix === undefined ? (family === 4 ? 32 : 128) : Number(prefix);
  // The URL parser writes an IPv6 address in its canonical (RFC 5952) form.
  const canonical = family === 4 ? address : new URL(`http://[${address}]/`).hostname;
  return `${canonical}/${bits}`;
};

/**
 * Whether a rule of `accessType` names the same grantee as `accessTo`: `accessTo`'s network is
 * written once, for a share's every rule to be compared with it.
 */
export const sameGranteeAs = (
  accessType: string,
  accessTo: string,
): ((other: string) => boolean) => {
  const key = accessType === 'ip' ? ipNetworkKey(accessTo) : undefined;
  return (other) => other === accessTo || (key !== undefined && ipNetworkKey(other) === key);
};
