import { useEffect, useRef } from 'preact/hooks';
import type { ShareDetail } from '../api/share-detail';
import { useCaller } from '../caller';
import { affinityElements } from '../lib/affinity-elements';
import { hrefOf } from '../lib/route';

/**
 * The shares this one was placed with (solid) or apart from (dashed), drawn by Cytoscape
 * (loaded only when a share has links). The list below says the same for screen readers.
 */
export const AffinityGraph = ({ share }: { share: ShareDetail }) => {
  const { api } = useCaller();
  const box = useRef<HTMLDivElement>(null);
  const sameHost = share.affinity?.sameHost ?? [];
  const differentHost = share.affinity?.differentHost ?? [];
  const linked = sameHost.length + differentHost.length > 0;
  const key = `${sameHost.join(',')}|${differentHost.join(',')}`;

  useEffect(() => {
    if (!linked || !box.current) return;
    let destroyed = false;
    let graph: { destroy(): void } | undefined;
    const container = box.current;
    void (async () => {
      const [{ default: cytoscape }, names] = await Promise.all([
        import('cytoscape'),
        api
          .rest<{ shares: { id: string; name: string | null }[] }>('GET', '/v2/shares?limit=1000')
          .then((r) => new Map(r.shares.map((s) => [s.id, s.name || s.id.slice(0, 8)])))
          .catch(() => new Map<string, string>()),
      ]);
      if (destroyed) return;
      const cy = cytoscape({
        container,
        elements: affinityElements(
          { id: share.id, label: share.name || share.id.slice(0, 8), sameHost, differentHost },
          (id) => names.get(id) ?? id.slice(0, 8),
        ),
        layout: { name: 'concentric', minNodeSpacing: 40 },
        userZoomingEnabled: false,
        style: [
          {
            selector: 'node',
            style: {
              label: 'data(label)',
              'background-color': '#5b7083',
              color: '#1b1f23',
              'font-size': 12,
            },
          },
          { selector: 'node[?self]', style: { 'background-color': '#0b6bcb' } },
          {
            selector: 'edge',
            style: {
              width: 2,
              'curve-style': 'bezier',
              'target-arrow-shape': 'triangle',
              label: 'data(kind)',
              'font-size': 10,
            },
          },
          {
            selector: 'edge[kind = "same_host"]',
            style: { 'line-color': '#2e7d32', 'target-arrow-color': '#2e7d32' },
          },
          {
            selector: 'edge[kind = "different_host"]',
            style: {
              'line-color': '#c62828',
              'target-arrow-color': '#c62828',
              'line-style': 'dashed',
            },
          },
        ],
      });
      cy.on('tap', 'node', (event) => {
        const id = event.target.id() as string;
        if (id !== share.id) location.hash = hrefOf({ page: 'share', id });
      });
      graph = cy;
    })();
    return () => {
      destroyed = true;
      graph?.destroy();
    };
    // The links, not the share object, decide the drawing.
  }, [key, linked, share.id]);

  if (!linked) return <p>This share was placed without affinity hints.</p>;
  return (
    <>
      <div ref={box} class="graph" role="img" aria-label="Affinity graph" />
      <ul class="plain">
        {sameHost.map((id) => (
          <li key={`s${id}`}>
            Placed with <a href={hrefOf({ page: 'share', id })}>{id}</a>
          </li>
        ))}
        {differentHost.map((id) => (
          <li key={`d${id}`}>
            Placed apart from <a href={hrefOf({ page: 'share', id })}>{id}</a>
          </li>
        ))}
      </ul>
    </>
  );
};
