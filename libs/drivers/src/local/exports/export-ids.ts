import { DriverError } from '../../contract/driver-error.js';
import { readJson, writeJsonAtomic } from '../json-file.js';

interface ExportIdFile {
  /** Never given out twice, so Ganesha never sees one id move to another path in one reload. */
  readonly next: number;
  readonly ids: Readonly<Record<string, number>>;
}

/** Ganesha's Export_Id is 16 bits and 0 is its pseudo root. */
const LAST_EXPORT_ID = 65535;

/**
 * Export ids of one back end's instances, kept in a file so an instance keeps its id across
 * restarts. Callers hold the back end's lock.
 */
export class ExportIds {
  constructor(
    private readonly file: string,
    private readonly firstId: number,
  ) {}

  /** The id of each instance listed, new ones numbered on; ids of instances not listed go. */
  async assign(instanceIds: readonly string[]): Promise<Map<string, number>> {
    const stored = (await readJson<ExportIdFile>(this.file)) ?? { next: this.firstId, ids: {} };
    let next = Math.max(stored.next, this.firstId);
    const assigned = new Map<string, number>();
    for (const instanceId of [...instanceIds].sort()) {
      let id = stored.ids[instanceId];
      if (id === undefined) {
        if (next > LAST_EXPORT_ID) throw exhausted();
        id = next;
        next += 1;
      }
      assigned.set(instanceId, id);
    }
    const ids = Object.fromEntries(assigned);
    if (next !== stored.next || !sameIds(ids, stored.ids)) {
      await writeJsonAtomic(this.file, { next, ids } satisfies ExportIdFile);
    }
    return assigned;
  }
}

function sameIds(a: Record<string, number>, b: Readonly<Record<string, number>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

function exhausted(): DriverError {
  return new DriverError({
    code: 'backend_error',
    userMessage: 'The NFS server has no export id left for this share.',
    detail: `Export_Id would pass ${LAST_EXPORT_ID}`,
  });
}
