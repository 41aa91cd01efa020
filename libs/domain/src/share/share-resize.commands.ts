export type ResizeCommand =
  | { type: 'ResizeShare'; direction: 'extend' | 'shrink'; newSize: number; now: string }
  | { type: 'CompleteShareInstanceResize'; instanceId: string; commandId: string; now: string }
  | {
      type: 'FailShareInstanceResize';
      instanceId: string;
      commandId: string;
      message: string;
      possibleDataLoss: boolean;
      now: string;
    };
