import type { DomainEvent } from '../shared/decider.js';
import type { ShareCapabilities } from '../share-type/extra-specs.js';
import type { ExportLocation, RequestedShareType } from './share.types.js';

/**
 * An admin asked Hawser to adopt a share that exists on a back end's pool (`host`), found by its
 * export path: the share is `manage_starting` there, with no size until the driver reports one.
 */
export type ShareManageRequested = DomainEvent<
  'ShareManageRequested',
  {
    shareId: string;
    instanceId: string;
    projectId: string;
    userId: string;
    name: string | null;
    description: string | null;
    shareProto: string;
    shareType: RequestedShareType;
    capabilities: ShareCapabilities;
    host: string;
    availabilityZone: string | null;
    exportPath: string;
    driverOptions: Record<string, string>;
    isPublic: boolean;
    createdAt: string;
  }
>;

/** The driver adopted the share: available with the size and export locations it reported. */
export type ShareManaged = DomainEvent<
  'ShareManaged',
  {
    instanceId: string;
    commandId: string;
    size: number;
    exportLocations: ExportLocation[];
    managedAt: string;
  }
>;

/** The driver could not adopt it: `manage_error`, size 0 (nothing is counted). */
export type ShareManageFailed = DomainEvent<
  'ShareManageFailed',
  { instanceId: string; commandId: string; message: string; failedAt: string }
>;

/** Unmanage was asked for: the instance is `unmanage_starting`. */
export type ShareUnmanageRequested = DomainEvent<
  'ShareUnmanageRequested',
  { instanceId: string; requestedAt: string }
>;

/** The driver let the share go, its data kept; ShareDeleted follows. */
export type ShareUnmanaged = DomainEvent<
  'ShareUnmanaged',
  { instanceId: string; commandId: string; unmanagedAt: string }
>;

/** The driver refused to let it go: `unmanage_error`. */
export type ShareUnmanageFailed = DomainEvent<
  'ShareUnmanageFailed',
  { instanceId: string; commandId: string; message: string; failedAt: string }
>;

export type ManageEvent =
  | ShareManageRequested
  | ShareManaged
  | ShareManageFailed
  | ShareUnmanageRequested
  | ShareUnmanaged
  | ShareUnmanageFailed;
