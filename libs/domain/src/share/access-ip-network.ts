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
