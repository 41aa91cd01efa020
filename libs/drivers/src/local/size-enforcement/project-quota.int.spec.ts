import {
  quotaVmUnavailable,
  runQuotaScenario,
  type QuotaFileSystem,
  type QuotaGuestRun,
} from '../test-support/quota-vm.js';

const MIB = 1024 ** 2;
const GIB = 1024 ** 3;
const FILE_SYSTEMS: readonly QuotaFileSystem[] = ['ext4', 'xfs'];
/** ext4 reports a full project quota as EDQUOT; XFS, like a full disk, as ENOSPC. */
const REFUSAL: Record<QuotaFileSystem, string> = { ext4: 'EDQUOT', xfs: 'ENOSPC' };

const enforcedAt = (limitBytes: number): Record<string, unknown> => ({
  limitBytes,
  overLimit: false,
  enforcement: 'enforced',
  strategy: 'project-quota',
});

const unavailable = quotaVmUnavailable();

if (unavailable) {
  describe('local driver on file systems with project quotas', () => {
    it.skip(`skipped: the quota guest cannot run here: ${unavailable}`, () => {
      expect(unavailable).toBeUndefined();
    });
  });
} else {
  describe('local driver on file systems with project quotas (in a User-mode Linux guest)', () => {
    let run: QuotaGuestRun<Record<string, unknown>>;

    beforeAll(async () => {
      run = await runQuotaScenario(FILE_SYSTEMS);
    }, 250_000);

    describe.each(FILE_SYSTEMS)('%s mounted with prjquota', (fileSystem) => {
      const findings = (): Record<string, unknown> => {
        const result = run.results[fileSystem];
        if (!result || 'failed' in result) {
          throw new Error(
            `the guest scenario failed on ${fileSystem}: ${JSON.stringify(result)}\n${run.console}`,
          );
        }
        return result;
      };

      it("given a pool there, then the driver and the pool's capabilities say sizes are enforced", () => {
        expect(findings().poolCapability).toBe('project-quota');
        expect(findings().sizeEnforcement).toMatchObject({
          strategy: 'project-quota',
          mode: 'enforced',
          fileSystem,
        });
      });

      it('given a 1 GiB share, then its project gets a 1 GiB hard limit and writes stop there', () => {
        expect(Object.values(findings().limitsAfterCreate as object)).toEqual([GIB]);
        const write = findings().writePastSize as { writtenBytes: number; error: string };
        expect(write.error).toBe(REFUSAL[fileSystem]);
        expect(write.writtenBytes).toBeLessThanOrEqual(GIB);
        expect(write.writtenBytes).toBeGreaterThan(GIB - 8 * MIB);
      });

      it('given a full share, then its status shows the quota usage, enforced', () => {
        const usage = findings().statusWhenFull as Record<string, unknown>;
        expect(usage).toMatchObject(enforcedAt(GIB));
        expect(usage.usedBytes).toBeGreaterThan(GIB - 8 * MIB);
        expect(usage.usedBytes).toBeLessThanOrEqual(GIB);
      });

      it('given a full share, then root still writes past it on ext4 (CAP_SYS_RESOURCE) but not on XFS', () => {
        expect(findings().rootWriteWhenFull).toEqual(
          fileSystem === 'ext4'
            ? { writtenBytes: 16 * MIB, error: null }
            : { writtenBytes: 0, error: 'ENOSPC' },
        );
      });

      it('given an extend to 2 GiB, then the limit follows and more data fits', () => {
        expect(Object.values(findings().limitsAfterExtend as object)).toEqual([2 * GIB]);
        expect(findings().writeAfterExtend).toEqual({ writtenBytes: 256 * MIB, error: null });
      });

      it('given a shrink below the data, then it is refused; above it, the limit follows', () => {
        expect(findings().shrinkBelowData).toBe('shrinking_possible_data_loss');
        expect(findings().shrinkAboveData).toBe('ok');
        expect(Object.values(findings().limitsAfterShrink as object)).toEqual([GIB]);
        const usage = findings().statusAfterShrink as Record<string, unknown>;
        expect(usage).toMatchObject(enforcedAt(GIB));
        expect(usage.usedBytes).toBeGreaterThanOrEqual(256 * MIB);
        expect(usage.usedBytes).toBeLessThan(256 * MIB + MIB);
      });

      it('given a limit lost on disk, then a restarted driver sets it again on the same project when it ensures its shares', () => {
        const limitsAfterShrink = findings().limitsAfterShrink;
        expect(findings().limitsAfterLoss).toEqual({});
        expect(findings().ensured).toEqual(['present']);
        expect(findings().limitsAfterEnsure).toEqual(limitsAfterShrink);
      });

      it('given a snapshot and a share made from it, then the new share is a project of its own holding the copy, and the snapshot counts against neither', () => {
        expect(Object.values(findings().limitsWithSnapshotAndCopy as object)).toEqual([GIB, GIB]);
        for (const usage of [findings().copyStatus, findings().statusWithSnapshot]) {
          expect(usage).toMatchObject(enforcedAt(GIB));
          expect((usage as { usedBytes: number }).usedBytes).toBeGreaterThanOrEqual(256 * MIB);
          expect((usage as { usedBytes: number }).usedBytes).toBeLessThan(256 * MIB + MIB);
        }
      });

      it('given a delete, then no project keeps a limit', () => {
        expect(findings().deleted).toEqual({ existed: true });
        expect(findings().limitsAfterDelete).toEqual({});
      });
    });
  });
}
