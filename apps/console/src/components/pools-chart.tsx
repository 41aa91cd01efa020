import { useEffect, useRef } from 'preact/hooks';
import type { Chart } from 'chart.js';
import { Table } from './common';

export interface PoolCapacity {
  readonly name: string;
  readonly backend: string | null;
  readonly pool: string | null;
  readonly availabilityZone: string | null;
  readonly totalCapacityGb: number | null;
  readonly freeCapacityGb: number | null;
  readonly allocatedCapacityGb: number;
}

const labelOf = (p: PoolCapacity) =>
  `${p.backend ?? p.name}#${p.pool ?? ''} (${p.availabilityZone ?? 'no zone'})`;

/**
 * Each pool's capacity as three bars (total, allocated, free), labelled with its back end, pool
 * and zone, drawn by Chart.js (loaded with this page only); the table below holds the same
 * figures as text.
 */
export const PoolsChart = ({ pools }: { pools: readonly PoolCapacity[] }) => {
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<Chart | undefined>(undefined);
  const sorted = [...pools].sort((a, b) => labelOf(a).localeCompare(labelOf(b)));

  useEffect(() => {
    let gone = false;
    void import('chart.js/auto').then(({ default: ChartJs }) => {
      if (gone || !canvas.current) return;
      const data = {
        labels: sorted.map(labelOf),
        datasets: [
          {
            label: 'Allocated GiB',
            data: sorted.map((p) => p.allocatedCapacityGb),
            backgroundColor: '#0b6bcb',
          },
          {
            label: 'Free GiB',
            data: sorted.map((p) => p.freeCapacityGb ?? 0),
            backgroundColor: '#9ccc65',
          },
        ],
      };
      if (chart.current) {
        chart.current.data = data;
        chart.current.update();
        return;
      }
      chart.current = new ChartJs(canvas.current, {
        type: 'bar',
        data,
        options: {
          indexAxis: 'y',
          responsive: true,
          maintainAspectRatio: false,
          animation: false,
          scales: { x: { title: { display: true, text: 'GiB' } } },
        },
      });
    });
    return () => {
      gone = true;
    };
  }, [pools]);
  useEffect(() => () => chart.current?.destroy(), []);

  return (
    <div class="pools">
      <div class="chart-box" style={{ height: `${Math.max(180, sorted.length * 72)}px` }}>
        <canvas
          ref={canvas}
          role="img"
          aria-label="Pool capacity chart: total, allocated and free GiB per pool"
        />
      </div>
      <Table columns={['Pool', 'Total GiB', 'Allocated GiB', 'Free GiB']} caption="Pool capacity">
        {sorted.map((p) => (
          <tr key={p.name} data-pool={p.name}>
            <td>{labelOf(p)}</td>
            <td>{p.totalCapacityGb ?? 'unknown'}</td>
            <td data-testid="allocated">{p.allocatedCapacityGb}</td>
            <td>{p.freeCapacityGb ?? 'unknown'}</td>
          </tr>
        ))}
      </Table>
    </div>
  );
};
