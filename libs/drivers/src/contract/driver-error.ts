/**
 * Why a driver operation failed. The share node maps codes onto Manila's outcomes:
 * `shrinking_possible_data_loss` leaves the share available with a user message,
 * `not_found` is tolerated on deletes, `snapshot_not_found` deletes a `deleting`
 * replica snapshot row, everything else puts the resource in its error status.
 */
export type DriverErrorCode =
  | 'not_found'
  | 'snapshot_not_found'
  | 'already_exists'
  | 'invalid_request'
  | 'invalid_access'
  | 'unsupported'
  | 'capacity_exceeded'
  | 'shrinking_possible_data_loss'
  | 'replication_error'
  | 'backend_error'
  | 'injected_failure';

/** Plain-data form of a DriverError, for events and transports. */
export interface DriverErrorData {
  readonly code: DriverErrorCode;
  /** Safe to show to the tenant (becomes the user message detail). */
  readonly userMessage: string;
  /** Operator-facing detail (paths, errno, ...); never shown to tenants. */
  readonly detail?: string;
  readonly operation?: string;
  readonly commandId?: string;
}

export class DriverError extends Error {
  readonly code: DriverErrorCode;
  readonly userMessage: string;
  readonly detail: string | undefined;
  readonly operation: string | undefined;
  readonly commandId: string | undefined;

  constructor(data: DriverErrorData) {
    super(data.detail ? `${data.userMessage} (${data.detail})` : data.userMessage);
    this.name = 'DriverError';
    this.code = data.code;
    this.userMessage = data.userMessage;
    this.detail = data.detail;
    this.operation = data.operation;
    this.commandId = data.commandId;
  }

  toData(): DriverErrorData {
    return {
      code: this.code,
      userMessage: this.userMessage,
      ...(this.detail !== undefined ? { detail: this.detail } : {}),
      ...(this.operation !== undefined ? { operation: this.operation } : {}),
      ...(this.commandId !== undefined ? { commandId: this.commandId } : {}),
    };
  }
}

export function isDriverError(error: unknown): error is DriverError {
  return error instanceof DriverError;
}
