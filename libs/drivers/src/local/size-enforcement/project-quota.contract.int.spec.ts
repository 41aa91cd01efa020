import {
  quotaVmUnavailable,
  runContractInQuotaGuest,
  type JestSummary,
  type QuotaFileSystem,
  type QuotaGuestRun,
} from '../test-support/quota-vm.js';

const FILE_SYSTEMS: readonly QuotaFileSystem[] = ['ext4', 'xfs'];
const TITLE =
  'local driver contract on ext4 and XFS with project quotas (in a User-mode Linux guest)';
/** 126 s for both file systems on the build machine; room for a busy one. */
const TIMEOUT_MS = 420_000;

const unavailable =
  process.env.HAWSER_LARGE_TESTS === '1'
    ? quotaVmUnavailable()
    : 'set HAWSER_LARGE_TESTS=1 to run (about two minutes)';

if (unavailable) {
  describe(TITLE, () => {
    it.skip(`skipped: ${unavailable}`, () => {
      expect(unavailable).toBeUndefined();
    });
  });
} else {
  describe(TITLE, () => {
    let run: QuotaGuestRun<JestSummary>;

    beforeAll(async () => {
      run = await runContractInQuotaGuest(FILE_SYSTEMS, TIMEOUT_MS);
    }, TIMEOUT_MS + 10_000);

    it.each(FILE_SYSTEMS)('on %s, every contract test passes on project-quota pools', (fs) => {
      const summary = run.results[fs];
      const failures = summary.testResults.map((result) => result.message).join('\n');
      expect({ failed: summary.numFailedTests, failures }).toEqual({ failed: 0, failures: '' });
      expect(summary.numPendingTests).toBe(0);
      // The strategy check plus the contract's tests.
      expect(summary.numPassedTests).toBeGreaterThanOrEqual(20);
    });
  });
}
