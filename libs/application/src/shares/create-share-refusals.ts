import { invalidInput } from '#hawser/api-contracts';

/** Manila's refusal of a size that is not a positive integer (`share/api.py` `create`). */
export const invalidShareSize = (size: unknown) =>
  invalidInput(`Share size '${String(size)}' must be an integer and greater than 0.`);

/** A list of words as Python prints it, as Manila's messages show a configured list. */
export const pythonList = (items: readonly string[]): string =>
  `[${items.map((item) => `'${item}'`).join(', ')}]`;
