import type { Logger } from '@nestjs/common';
import type { CommandContext } from '#hawser/application';
import { DriverError } from '#hawser/drivers';

/** The context of a command a share node records (a claim's outcome, a refresh). */
export const nodeCommandContext = (commandId: string, causationId: string): CommandContext => ({
  commandId,
  causationId,
  userId: 'share-node',
});

/** A driver failure as the user reads it; anything but a DriverError is logged, not shown. */
export const driverFailureMessage = (logger: Logger, error: unknown, what: string): string => {
  if (error instanceof DriverError) return error.message;
  logger.error(error instanceof Error ? error.stack : String(error));
  return `Driver failed to ${what}.`;
};
