/** A share's affinity links as graph elements: the share, the shares it names, an edge each. */
export interface AffinityLinks {
  readonly id: string;
  readonly label: string;
  readonly sameHost: readonly string[];
  readonly differentHost: readonly string[];
}

export interface GraphNode {
  readonly data: { readonly id: string; readonly label: string; readonly self: boolean };
}
export interface GraphEdge {
  readonly data: {
    readonly id: string;
    readonly source: string;
    readonly target: string;
    readonly kind: 'same_host' | 'different_host';
  };
}

export const affinityElements = (
  links: AffinityLinks,
  nameOf: (id: string) => string,
): (GraphNode | GraphEdge)[] => {
  const others = [...new Set([...links.sameHost, ...links.differentHost])].filter(
    (id) => id !== links.id,
  );
  const edges = (ids: readonly string[], kind: GraphEdge['data']['kind']): GraphEdge[] =>
    ids
      .filter((id) => id !== links.id)
      .map((id) => ({ data: { id: `${kind}:${id}`, source: links.id, target: id, kind } }));
  return [
    { data: { id: links.id, label: links.label, self: true } },
    ...others.map((id) => ({ data: { id, label: nameOf(id), self: false } })),
    ...edges(links.sameHost, 'same_host'),
    ...edges(links.differentHost, 'different_host'),
  ];
};
