import { DriverError } from '../contract/driver-error.js';
import type { SnapshotAccessRequest } from '../contract/share-driver.js';
import { accessRuleProblem, applyAccessRequest } from '../common/access-rules.js';
import { snapshotNotFound } from '../common/driver-checks.js';
import type { LocalContext } from './local-context.js';

/**
 * Mountable snapshots on the local driver (2.32): a snapshot's read-only rules are kept in its
 * metadata, and the export layer serves its directory to those clients, read-only (NFS shares:
 * Ganesha under `/snapshot-<id>`, and the exports file).
 */
export class LocalSnapshotAccess {
  constructor(private readonly context: LocalContext) {}

  async snapshotUpdateAccess(request: SnapshotAccessRequest): Promise<void> {
    const { share, snapshot } = request;
    this.context.own(share);
    const { store } = this.context;
    for (const rule of request.addRules) {
      const problem = accessRuleProblem(rule, share.protocol);
      if (problem) {
        throw new DriverError({
          code: 'invalid_access',
          userMessage: `The snapshot's access rule cannot be enforced: ${problem}.`,
        });
      }
    }
    await store.withShareLock(share.host, share.instanceId, async () => {
      const meta = await store.readSnapshot(share.host, snapshot.snapshotInstanceId);
      if (!meta) throw snapshotNotFound(snapshot.snapshotInstanceId);
      const { rules } = applyAccessRequest(meta.rules ?? [], {
        ...request,
        castRulesToReadonly: true,
      });
      await store.writeSnapshot({ ...meta, rules });
    });
    await this.context.rewriteAccessFiles(this.context.backend);
  }
}
