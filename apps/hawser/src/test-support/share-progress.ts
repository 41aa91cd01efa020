import { eventually } from './hawser-test-server.js';

export interface ProgressSample {
  readonly status: string;
  readonly progress: string | null;
}

/** Reads a share until it is `available` or `error`; the last read and every status seen. */
export const watchUntilSettled = async <T extends ProgressSample>(
  read: () => Promise<T>,
  timeoutMs: number,
): Promise<{ last: T; seen: ProgressSample[] }> => {
  const seen: ProgressSample[] = [];
  const last = await eventually(
    async () => {
      const share = await read();
      seen.push({ status: share.status, progress: share.progress });
      return share.status === 'available' || share.status === 'error' ? share : undefined;
    },
    timeoutMs,
    'the share to be available or in error',
  );
  return { last, seen };
};

/**
 * The percentages seen while `creating_from_snapshot`: checked to be several, never falling,
 * and more than one value.
 */
export const expectRisingProgress = (seen: readonly ProgressSample[]): number[] => {
  const percents = seen
    .filter((s) => s.status === 'creating_from_snapshot')
    .map((s) => Number.parseInt(s.progress ?? '', 10));
  expect(percents.length).toBeGreaterThan(1);
  expect(percents).toEqual([...percents].sort((a, b) => a - b));
  expect(new Set(percents).size).toBeGreaterThan(1);
  return percents;
};
