import { createHash } from 'node:crypto';

/** RFC 4122 namespace of Hawser's derived ids (a fixed, random UUID). */
export const HAWSER_NAMESPACE = '5e0b1c4a-7f7d-4a56-9f1e-3b8c2f6d9a10';

/**
 * A name-based (version 5, SHA-1) UUID. The same inputs always give the same id, which is what
 * makes retried appends and replayed process managers idempotent: a command derived from an event,
 * and the events derived from a command, keep their ids however often they are produced.
 */
export const uuidV5 = (name: string, namespace: string = HAWSER_NAMESPACE): string => {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  if (ns.length !== 16) throw new Error(`invalid namespace UUID ${namespace}`);
  const hash = createHash('sha1').update(ns).update(name, 'utf8').digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

/** The id of something caused by `causeId` for one purpose (a command, an event of a command). */
export const derivedId = (causeId: string, purpose: string | number): string =>
  uuidV5(`${causeId}:${String(purpose)}`);
