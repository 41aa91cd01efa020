import { hash } from 'node:crypto';

/** RFC 4122 namespace of Hawser's derived ids (a fixed, random UUID). */
export const HAWSER_NAMESPACE = '5e0b1c4a-7f7d-4a56-9f1e-3b8c2f6d9a10';

/** Namespaces are a few constants: their bytes are parsed once each. */
const NAMESPACES_KEPT = 16;
const namespaceBytes = new Map<string, Buffer>();

const bytesOfNamespace = (namespace: string): Buffer => {
  let bytes = namespaceBytes.get(namespace);
  if (bytes === undefined) {
    bytes = Buffer.from(namespace.replace(/-/g, ''), 'hex');
    if (bytes.length !== 16) throw new Error(`invalid namespace UUID ${namespace}`);
    if (namespaceBytes.size >= NAMESPACES_KEPT) namespaceBytes.clear();
    namespaceBytes.set(namespace, bytes);
  }
  return bytes;
};

/** The 16 bytes of the namespace followed by the name, the input SHA-1 hashes. */
let input = Buffer.alloc(256);

const hashInput = (namespace: Buffer, name: string): Buffer => {
  const length = 16 + Buffer.byteLength(name, 'utf8');
  if (length > input.length) input = Buffer.alloc(2 * length);
  namespace.copy(input, 0);
  input.write(name, 16, 'utf8');
  return input.subarray(0, length);
};

/** RFC 4122 variant bits (10xx) over the hex digit they share with the hash. */
const variantDigit = (hex: string): string => ((parseInt(hex, 16) & 0x3) | 0x8).toString(16);

/**
 * A name-based (version 5, SHA-1) UUID. The same inputs always give the same id, which is what
 * makes retried appends and replayed process managers idempotent: a command derived from an event,
 * and the events derived from a command, keep their ids however often they are produced.
 * One-shot hashing of a reused buffer: ids are derived on every command and reaction.
 */
export const uuidV5 = (name: string, namespace: string = HAWSER_NAMESPACE): string => {
  const hex = hash('sha1', hashInput(bytesOfNamespace(namespace), name), 'hex');
  return (
    `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-` +
    `${variantDigit(hex.charAt(16))}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
  );
};

/** An id that begins with the time it was made: version 7, or 8 as `derivedId` makes them. */
const BEGINS_WITH_TIME = /^[0-9a-f]{8}-[0-9a-f]{4}-[78]/i;

/**
 * The id of something caused by `causeId` for one purpose (a command, an event of a command):
 * the version 5 id of `<cause>:<purpose>`. A cause whose id begins with the time it was made
 * (a request's command, version 7) passes that time on: the derived id is of version 8 (RFC
 * 9562's layout of one's own), the cause's first 48 bits followed by the version 5 id's last
 * 74, and so passes it on in turn. Everything a request causes then sorts by the request's time,
 * so a stream's index on its events' ids takes a new event at its end: with random ids, a long
 * stream's events (a busy project's quota) each landed on a page of their own in that index, one
 * more page for every event of a group commit to write.
 */
export const derivedId = (causeId: string, purpose: string | number): string => {
  const hashed = uuidV5(`${causeId}:${String(purpose)}`);
  if (!BEGINS_WITH_TIME.test(causeId)) return hashed;
  return `${causeId.slice(0, 8)}-${causeId.slice(9, 13)}-8${hashed.slice(15)}`;
};
