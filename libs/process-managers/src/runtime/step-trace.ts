import type { Logger } from '@nestjs/common';
import type { RecordedEvent } from '#hawser/eventstore';
import {
  secondsSince,
  withLogContext,
  workflowStepDuration,
  type StepTrace,
} from '#hawser/observability';

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

/**
 * Handles one event as a workflow step: within the request and correlation the event carries
 * (so the commands it sends and the driver calls it makes name them too), timed, counted, and
 * logged as one line naming the commands decided and driver operations run. A step that did
 * nothing is logged at debug only.
 */
export const traceStep = async <T>(
  processManager: string,
  event: RecordedEvent,
  logger: Logger,
  handle: () => Promise<T>,
): Promise<T> => {
  const step: StepTrace = { commands: [], driverOperations: [] };
  const requestId = text(event.metadata.requestId);
  const context = {
    ...(requestId !== undefined && { requestId }),
    correlationId: text(event.metadata.$correlationId) ?? event.id,
    causationId: event.id,
    stream: event.streamId,
    step,
  };
  const started = performance.now();
  let outcome = 'handled';
  try {
    return await withLogContext(context, handle);
  } catch (error) {
    outcome = 'failed';
    throw error;
  } finally {
    const seconds = secondsSince(started);
    workflowStepDuration.observe({ process_manager: processManager, outcome }, seconds);
    const line = {
      msg: `${processManager} ${outcome} ${event.type} of ${event.streamId}`,
      processManager,
      event: event.type,
      stream: event.streamId,
      causation: event.id,
      correlationId: context.correlationId,
      ...(requestId !== undefined && { requestId }),
      commands: step.commands,
      driverOperations: step.driverOperations,
      outcome,
      durationMs: Math.round(seconds * 1000),
    };
    if (step.commands.length === 0 && step.driverOperations.length === 0 && outcome === 'handled')
      logger.debug(line);
    else logger.log(line);
  }
};
