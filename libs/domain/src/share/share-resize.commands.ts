export type ResizeCommand =
  | {
      type: 'ResizeShare';
      direction: 'extend' | 'shrink';
      newSize: number;
      /** A non-forced extend waits for the scheduler's capacity check (reference 6.9). */
      capacityCheck?: boolean;
      now: string;
    }
  | { type: 'ConfirmShareExtendCapacity'; host: string; sizeDeltaGiB: number; now: string }
  | { type: 'RefuseShareExtend'; message: string; detail: Record<string, unknown>; now: string }
  | { type: 'CompleteShareInstanceResize'; instanceId: string; commandId: string; now: string }
  | {
      type: 'FailShareInstanceResize';
      instanceId: string;
      commandId: string;
      message: string;
      possibleDataLoss: boolean;
      now: string;
    };
