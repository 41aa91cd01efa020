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

/** The id of something caused by `causeId` for one purpose (a command, an event of a command). */
export const derivedId = (causeId: string, purpose: string | number): string =>
  uuidV5(`${causeId}:${String(purpose)}`);
