import { randomFillSync } from 'node:crypto';
import { v7 } from 'uuid';

/** Random bytes uuid's layout reads for an id. */
const ID_BYTES = 16;
/** Ids served by one draw from the system's generator. */
const IDS_PER_DRAW = 256;

/**
 * uuid draws 16 random bytes from `crypto.getRandomValues` for each id, one call to the
 * system's generator each time: about 25 us a call in the server (against 2 in a loop on its
 * own), and a create makes two or three ids. As node's `randomUUID` does, the bytes are drawn
 * for many ids at once and handed out in turn.
 */
let drawn = Buffer.alloc(0);
let next = 0;

const randomBytes = (): Buffer => {
  if (next + ID_BYTES > drawn.length) {
    drawn = randomFillSync(Buffer.allocUnsafe(ID_BYTES * IDS_PER_DRAW));
    next = 0;
  }
  const bytes = drawn.subarray(next, next + ID_BYTES);
  next += ID_BYTES;
  return bytes;
};

/**
 * The millisecond and counter of the last id. uuid keeps them itself only when it draws the
 * bytes, so they are kept here by its rule: a new millisecond starts the counter at 31 random
 * bits, and each id within the same millisecond adds one (a wrap moves to the next millisecond),
 * so ids made one after another sort in that order.
 */
let msecs = Number.NEGATIVE_INFINITY;
let seq = 0;

/**
 * The id of a user command and of every resource a request creates (a share and its instance, a
 * snapshot, a replica, an access rule, a share type): a UUID, as Manila's, but of version 7 (RFC
 * 9562), whose first 48 bits are the time it was made, then a counter. Ids made one after another
 * sort together, so every index keyed by an id (the event log's streams, the read models' primary
 * keys, a listing's tie-break) takes a new one at its end, on a page a commit writes anyway; a
 * random id (version 4) lands on a random page of each, one more page a commit writes, and one
 * more page to read once the store outgrows the page cache. A command's events and what they
 * cause keep its time (`derivedId`).
 */
export const timeOrderedId = (): string => {
  const random = randomBytes();
  const now = Date.now();
  if (now > msecs) {
    msecs = now;
    seq = random.readUInt32BE(6) & 0x7fffffff;
  } else {
    seq = (seq + 1) | 0;
    if (seq === 0) msecs += 1;
  }
  return v7({ random, msecs, seq });
};
