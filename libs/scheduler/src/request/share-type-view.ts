import {
  capabilityRequirements,
  type CapabilityRequirement,
  type ExtraSpecs,
} from '../extra-specs/capability-requirements.js';
import type { SchedulingRequest } from './scheduling-request.js';

/**
 * What a request's share type means to the filters, which depends only on the type's specs, the
 * protocol and whether the share is a replica or clone: computed once per such combination.
 */
export interface ShareTypeView {
  /** The request's copy of the extra specs after Manila's rewriting (`extra.*`). */
  readonly extraSpecs: ExtraSpecs;
  readonly requirements: readonly CapabilityRequirement[];
  /** Identifies the requirement set, for caches (the same string object on every reuse). */
  readonly requirementsKey: string;
  readonly useThinLogic: boolean;
}

interface CachedView {
  readonly specs: ExtraSpecs;
  readonly shareProto: string | null;
  readonly replicaOrClone: boolean;
  readonly view: ShareTypeView;
}

const MAX_CACHED_TYPES = 4096;
const MAX_VIEWS_PER_TYPE = 16;

const sameSpecs = (a: ExtraSpecs, b: ExtraSpecs): boolean => {
  if (a === b) return true;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => a[key] === b[key]);
};

/** Views by share type id; a changed type (other specs) simply gets another entry. */
export class ShareTypeViews {
  private readonly byType = new Map<string, CachedView[]>();

  constructor(private readonly build: (request: SchedulingRequest) => ShareTypeView) {}

  of(request: SchedulingRequest): ShareTypeView {
    const specs = request.shareType.extraSpecs;
    const shareProto = request.shareProto;
    const replicaOrClone = !!(request.activeReplicaHost || request.snapshot?.host);
    let cached = this.byType.get(request.shareType.id);
    const hit = cached?.find(
      (entry) =>
        entry.shareProto === shareProto &&
        entry.replicaOrClone === replicaOrClone &&
        sameSpecs(entry.specs, specs),
    );
    if (hit) return hit.view;
    if (!cached) {
      if (this.byType.size >= MAX_CACHED_TYPES) this.byType.clear();
      this.byType.set(request.shareType.id, (cached = []));
    }
    if (cached.length >= MAX_VIEWS_PER_TYPE) cached.shift();
    const view = this.build(request);
    cached.push({ specs: { ...specs }, shareProto, replicaOrClone, view });
    return view;
  }
}

export const requirementsView = (extraSpecs: ExtraSpecs, useThinLogic: boolean): ShareTypeView => {
  const requirements = capabilityRequirements(extraSpecs);
  return {
    extraSpecs,
    requirements,
    requirementsKey: requirements.map((r) => `${r.key}\u0000${r.requirement.raw}`).join('\u0001'),
    useThinLogic,
  };
};
