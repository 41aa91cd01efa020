/** A placement recorded by any scheduler: debit the pool, once per `key`. */
export interface ConsumePoolCapacity {
  readonly type: 'ConsumePoolCapacity';
  readonly host: string;
  readonly key: string;
  readonly sizeGiB: number;
  /** When it was placed (ms): a pool report measured later already counts it. */
  readonly placedAt: number;
}

export const poolDebit = (
  host: string,
  key: string,
  sizeGiB: number,
  at: string,
): ConsumePoolCapacity => ({
  type: 'ConsumePoolCapacity',
  host,
  key,
  sizeGiB,
  placedAt: Date.parse(at),
});
