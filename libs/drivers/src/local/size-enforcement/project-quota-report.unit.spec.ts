import { chooseProjectId } from './project-ids.js';
import { parseProjectQuotaReport } from './project-quota-report.js';

// As quota 4.06's `repquota -P -n -O csv` prints it for ext4 with one full project.
const REPORT = `Project,BlockStatus,FileStatus,BlockUsed,BlockSoftLimit,BlockHardLimit,BlockGrace,FileUsed,FileSoftLimit,FileHardLimit,FileGrace
#0,ok,ok,20,0,0,,2,0,0,
#1001,hard,ok,10240,0,10240,,4,0,0,
`;

describe('project quota report', () => {
  it('given repquota CSV, then each project has its used bytes and hard limit in bytes', () => {
    expect(parseProjectQuotaReport(REPORT)).toEqual(
      new Map([
        [0, { usedBytes: 20 * 1024, hardLimitBytes: 0 }],
        [1001, { usedBytes: 10 * 1024 ** 2, hardLimitBytes: 10 * 1024 ** 2 }],
      ]),
    );
  });

  it('given output without the expected columns, then it says so instead of guessing', () => {
    expect(() => parseProjectQuotaReport('*** Report for project quotas\n')).toThrow(
      /unexpected project quota report header/,
    );
  });
});

describe('project ids', () => {
  it('given the same directory, then the same id; given its id taken, then the next free one', () => {
    const first = chooseProjectId('/pool/shares/a', new Set());
    expect(first).toBeGreaterThanOrEqual(100_000);
    expect(chooseProjectId('/pool/shares/a', new Set())).toBe(first);
    expect(chooseProjectId('/pool/shares/a', new Set([first, first + 1]))).toBe(first + 2);
  });
});
