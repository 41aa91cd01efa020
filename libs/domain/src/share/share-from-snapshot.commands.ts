import type { ExportLocation } from './share.types.js';

export type FromSnapshotCommand =
  | {
      /** The driver's answer to create_share_from_snapshot was `creating_from_snapshot`. */
      type: 'RecordShareCreationDeferred';
      instanceId: string;
      commandId: string;
      now: string;
    }
  | {
      /** What get_share_status said of an instance in `creating_from_snapshot`. */
      type: 'RecordShareStatusPoll';
      instanceId: string;
      /** Unique per poll and instance revision; the outcome events carry it as their command id. */
      pollId: string;
      status: 'available' | 'creating_from_snapshot' | 'error';
      /** 0..100, or null when the driver gave none. */
      progress: number | null;
      exportLocations: ExportLocation[];
      /** The user-facing reason of an `error`. */
      message: string | null;
      now: string;
    };
