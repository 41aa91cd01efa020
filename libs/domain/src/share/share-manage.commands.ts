import type { ShareManageRequested } from './share-manage.events.js';
import type { ExportLocation } from './share.types.js';

/** Manage and unmanage (DHSS=False): a share adopted from, or handed back to, its back end. */
export type ManageCommand =
  | ({ type: 'ManageShare' } & ShareManageRequested['data'])
  | {
      type: 'CompleteShareManage';
      instanceId: string;
      commandId: string;
      size: number;
      exportLocations: ExportLocation[];
      now: string;
    }
  | { type: 'FailShareManage'; instanceId: string; commandId: string; message: string; now: string }
  | { type: 'UnmanageShare'; now: string }
  | { type: 'CompleteShareUnmanage'; instanceId: string; commandId: string; now: string }
  | {
      type: 'FailShareUnmanage';
      instanceId: string;
      commandId: string;
      message: string;
      now: string;
    };
