import { isIP } from 'node:net';

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
  if (family === 0) return undefined;
  const bits = prefix === undefined ? (family === 4 ? 32 : 128) : Number(prefix);
  // The URL parser writes an IPv6 address in its canonical (RFC 5952) form.
  const canonical = family === 4 ? address : new URL(`http://[${address}]/`).hostname;
  return `${canonical}/${bits}`;
};

/** Whether two rules of the same type name the same grantee. */
export const sameGrantee = (accessType: string, a: string, b: string): boolean => {
  if (a === b) return true;
  if (accessType !== 'ip') return false;
  const key = ipNetworkKey(a);
  return key !== undefined && key === ipNetworkKey(b);
};
