import { DriverError } from '../contract/driver-error.js';
import type { ShareInstanceRef, ShareProtocol } from '../contract/share-driver.js';
import { parseShareHost, type ShareHostParts } from '../contract/share-host.js';

const DEFAULT_PROTOCOLS: readonly ShareProtocol[] = ['NFS', 'CIFS'];

/** The placement of a share that must live on this back end, in one of its pools. */
export function ownPlacement(
  backend: string,
  poolNames: readonly string[],
  share: ShareInstanceRef,
): ShareHostParts {
  const placement = parseShareHost(share.host);
  if (placement.backend !== backend || !poolNames.includes(placement.pool)) {
    throw new DriverError({
      code: 'invalid_request',
      userMessage: 'The share was sent to a back end that does not hold its pool.',
      detail: `${share.host} is not a pool of ${backend}`,
    });
  }
  return placement;
}

export function checkProtocol(
  share: ShareInstanceRef,
  protocols: readonly ShareProtocol[] = DEFAULT_PROTOCOLS,
): void {
  if (!protocols.includes(share.protocol)) {
    throw new DriverError({
      code: 'unsupported',
      userMessage: `Protocol ${share.protocol} is not supported by this back end.`,
    });
  }
}

export function checkSize(sizeGiB: number): void {
  if (!Number.isInteger(sizeGiB) || sizeGiB < 1) {
    throw new DriverError({
      code: 'invalid_request',
      userMessage: 'Share size must be a positive whole number of GiB.',
      detail: `size ${sizeGiB}`,
    });
  }
}

export function shareNotFound(instanceId: string): DriverError {
  return new DriverError({
    code: 'not_found',
    userMessage: 'The share does not exist on the back end.',
    detail: `share instance ${instanceId}`,
  });
}

export function snapshotNotFound(snapshotInstanceId: string): DriverError {
  return new DriverError({
    code: 'snapshot_not_found',
    userMessage: 'The snapshot does not exist on the back end.',
    detail: `snapshot instance ${snapshotInstanceId}`,
  });
}

/** Manila's rule that an active replica exists among the replicas passed in. */
export function activeReplicaOf(replicaList: readonly ShareInstanceRef[]): ShareInstanceRef {
  const active = replicaList.find((replica) => replica.replicaState === 'active');
  if (!active) {
    throw new DriverError({
      code: 'replication_error',
      userMessage: 'The share has no active replica.',
    });
  }
  return active;
}

/** Snapshots and replicas need a share whose data is complete (Manila: status available). */
export function requireAvailable(instanceId: string, status: string, action: string): void {
  if (status !== 'available') {
    throw new DriverError({
      code: 'invalid_request',
      userMessage: `The share must be available to ${action}.`,
      detail: `share instance ${instanceId} is ${status}`,
    });
  }
}
