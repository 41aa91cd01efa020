import { Logger } from '@nestjs/common';
import type { CommandHandler } from '#hawser/application';
import type { ActiveShare, ShareInstanceState } from '#hawser/domain';
import type { ShareDriver, ShareInstanceRef } from '#hawser/drivers';

/** How a driver sees one instance of a share. */
export type RefOf = (state: ActiveShare, instance: ShareInstanceState) => ShareInstanceRef;

/**
 * What each group of a node's driver calls works with: the log to record outcomes on, the
 * driver of a host, the clock, and the driver's view of an instance.
 */
export abstract class NodeDriverCalls {
  protected readonly logger = new Logger('share-node');

  constructor(
    protected readonly commands: CommandHandler,
    protected readonly driverFor: (host: string) => ShareDriver | undefined,
    protected readonly clock: () => string,
    protected readonly refOf: RefOf,
  ) {}
}

/** The collaborators every group of driver calls is built from, in constructor order. */
export type NodeDriverCallParts = ConstructorParameters<typeof NodeDriverCalls>;
