/** Nest injection token of the document store (the read models' port). */
export const DOCUMENT_STORE = Symbol('DOCUMENT_STORE');

/** Waits until the read models reflect a log position (read-your-writes). */
export interface ReadYourWrites {
  waitFor(position: number | undefined): Promise<void>;
}
export const READ_YOUR_WRITES = Symbol('READ_YOUR_WRITES');
