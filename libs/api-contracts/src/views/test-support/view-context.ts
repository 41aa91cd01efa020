import type { ViewContext } from '../view-context.js';

/** A request context for view specs: `version` as Manila writes it ("2.9"). */
export const viewContext = (
  version: string,
  options: { isAdmin?: boolean; urlProjectId?: string } = {},
): ViewContext => {
  const [major, minor] = version.split('.').map(Number) as [number, number];
  return {
    version: [major, minor],
    isAdmin: options.isAdmin ?? false,
    baseUrl: 'http://hawser:8786',
    urlProjectId: options.urlProjectId,
  };
};

/** The sorted key set of a view: what the field-set tables compare. */
export const keysOf = (view: object): string[] => Object.keys(view).sort();

/** One row of a field-set table: the key, the first and last microversion showing it. */
export interface FieldRow {
  readonly key: string;
  readonly from?: string;
  readonly until?: string;
  readonly adminOnly?: boolean;
}

const minor = (version: string) => Number(version.split('.')[1]);

/** The keys a field-set table promises at a microversion, for an admin or not (sorted). */
export const expectedKeys = (
  table: readonly FieldRow[],
  version: string,
  isAdmin: boolean,
): string[] =>
  table
    .filter((row) => row.from === undefined || minor(version) >= minor(row.from))
    .filter((row) => row.until === undefined || minor(version) <= minor(row.until))
    .filter((row) => isAdmin || !row.adminOnly)
    .map((row) => row.key)
    .sort();

/** Every 2.x microversion Hawser speaks: 2.0 to 2.73. */
export const ALL_VERSIONS = Array.from({ length: 74 }, (_, i) => `2.${i}`);

/**
 * One Jest case per microversion and caller: the rendered view's keys are exactly the table's.
 * `callers` are the admin flags to try; `versions` defaults to every one Hawser speaks.
 */
export const itShowsTheTableKeys = (
  table: readonly FieldRow[],
  render: (ctx: ViewContext) => object,
  {
    versions = ALL_VERSIONS,
    callers = [false, true],
  }: { versions?: string[]; callers?: boolean[] } = {},
): void => {
  const cases = versions.flatMap((v) => callers.map((isAdmin) => [v, isAdmin] as const));
  it.each(cases)('at %s (admin: %s) shows exactly the reference keys', (version, isAdmin) => {
    expect(keysOf(render(viewContext(version, { isAdmin })))).toEqual(
      expectedKeys(table, version, isAdmin),
    );
  });
};
