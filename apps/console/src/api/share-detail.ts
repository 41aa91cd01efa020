/** The share page's read: one GraphQL query for the share and what hangs off it. */
export const SHARE_PAGE = `query SharePage($id: ID!) {
  share(id: $id) {
    id name description status progress size shareProto availabilityZone shareTypeName
    projectId userId isPublic snapshotId replicationType hasReplicas host createdAt updatedAt
    accessRulesStatus
    metadata { key value }
    exportLocations { id path preferred }
    affinity { sameHost differentHost }
    accessRules { id accessType accessTo accessLevel state }
    snapshots { id name status progress size createdAt }
    replicas { id status replicaState progress availabilityZone }
    events(first: 100) { id revision type recordedAt userId projectId requestId causationId correlationId }
  }
}`;

export interface ShareDetail {
  readonly id: string;
  readonly name: string | null;
  readonly description: string | null;
  readonly status: string;
  readonly progress: string | null;
  readonly size: number;
  readonly shareProto: string;
  readonly availabilityZone: string | null;
  readonly shareTypeName: string | null;
  readonly projectId: string;
  readonly userId: string;
  readonly isPublic: boolean;
  readonly snapshotId: string | null;
  readonly replicationType: string | null;
  readonly hasReplicas: boolean;
  readonly host: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly accessRulesStatus: string;
  readonly metadata: readonly { key: string; value: string }[];
  readonly exportLocations: readonly { id: string; path: string; preferred: boolean }[];
  readonly affinity: { sameHost: readonly string[]; differentHost: readonly string[] } | null;
  readonly accessRules: readonly AccessRuleDetail[];
  readonly snapshots: readonly SnapshotDetail[];
  readonly replicas: readonly ReplicaDetail[];
  readonly events: readonly ShareEventDetail[];
}

export interface AccessRuleDetail {
  readonly id: string;
  readonly accessType: string;
  readonly accessTo: string;
  readonly accessLevel: string;
  readonly state: string;
}

export interface SnapshotDetail {
  readonly id: string;
  readonly name: string | null;
  readonly status: string | null;
  readonly progress: string | null;
  readonly size: number;
  readonly createdAt: string;
}

export interface ReplicaDetail {
  readonly id: string;
  readonly status: string;
  readonly replicaState: string | null;
  readonly progress: string | null;
  readonly availabilityZone: string | null;
}

export interface ShareEventDetail {
  readonly id: string;
  readonly revision: number;
  readonly type: string;
  readonly recordedAt: string;
  readonly userId: string | null;
  readonly projectId: string | null;
  readonly requestId: string | null;
  readonly causationId: string | null;
  readonly correlationId: string | null;
}

/** Metadata keys Hawser keeps its affinity links in; shown as the graph, not as metadata. */
export const isInternalMetadata = (key: string): boolean => key.startsWith('__affinity_');

/** States a share's parts pass through on their way somewhere: the page keeps following them. */
const SETTLED = new Set(['available', 'active', 'error', 'in_sync', 'deleted', 'error_deleting']);
export const isSettled = (status: string | null): boolean => status === null || SETTLED.has(status);
