import { ManilaHttpError } from './manila-error.js';
import type { Microversion } from './request-context.js';

export const MIN_VERSION = '2.0';
/** Manila Zed's maximum; python3-manilaclient speaks up to 2.72. */
export const MAX_VERSION = '2.73';

const FORMAT = /^([1-9]\d*)\.([1-9]\d*|0)$/;
const TRUE_WORDS = new Set(['1', 't', 'true', 'on', 'y', 'yes']);

const parts = (text: string): [number, number] => text.split('.').map(Number) as [number, number];
const compare = (a: [number, number], b: [number, number]) => a[0] - b[0] || a[1] - b[1];

/** Manila's negotiation (reference 3.2): absent = 2.0; malformed = 400; out of range = 406. */
export const negotiateMicroversion = (
  header: string | undefined,
  experimentalHeader: string | undefined,
): Microversion => {
  const experimental = TRUE_WORDS.has((experimentalHeader ?? '').trim().toLowerCase());
  const text = header === undefined ? MIN_VERSION : header;
  const match = FORMAT.exec(text);
  if (!match) {
    throw new ManilaHttpError(
      400,
      `API Version String ${text} is of invalid format. Must be of format MajorNum.MinorNum.`,
    );
  }
  const requested: [number, number] = [Number(match[1]), Number(match[2])];
  if (compare(requested, parts(MIN_VERSION)) < 0 || compare(requested, parts(MAX_VERSION)) > 0) {
    throw new ManilaHttpError(
      406,
      `Version ${text} is not supported by the API. Minimum is ${MIN_VERSION} and maximum is ${MAX_VERSION}.`,
    );
  }
  return { major: requested[0], minor: requested[1], text, experimental };
};
