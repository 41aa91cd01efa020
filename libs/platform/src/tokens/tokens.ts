/** Nest injection tokens for the ports; adapters are chosen by configuration at start-up. */
export const EVENT_STORE = Symbol('EVENT_STORE');
export const DOCUMENT_STORE = Symbol('DOCUMENT_STORE');

/** Waits until the read models reflect a log position (read-your-writes). */
export interface ReadYourWrites {
  waitFor(position: number | undefined): Promise<void>;
}
export const READ_YOUR_WRITES = Symbol('READ_YOUR_WRITES');
