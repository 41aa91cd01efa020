import { SHARE_STREAM_PREFIX, type PendingReservation } from '#hawser/domain';
import type { DocumentWrite } from '#hawser/read-models';
import { quotaEvents, shareEvents } from '../../../../eventstore/decoders.js';
import type { ProcessManager } from '../runtime/process-manager.js';
import { workflowProcessManager } from '../runtime/workflow-process-manager.js';
import {
  pendingReservationsWorkflow,
  type PendingReservationsInput,
} from './pending-reservations.workflow.js';

/** Reservations counted for a user's request that no recorded request has claimed yet. */
export const PENDING_RESERVATIONS = 'pending_reservations';

export interface PendingReservationDocument extends PendingReservation {
  /** The reservation id. */
  readonly id: string;
}

/**
 * The pending reservations workflow's executor: its outputs are the index's puts and deletes,
 * committed with the process manager's checkpoint.
 */
export const pendingReservationsProcessManager = (): ProcessManager =>
  workflowProcessManager(pendingReservationsWorkflow, {
    decode: (recorded): PendingReservationsInput =>
      recorded.streamId.startsWith(SHARE_STREAM_PREFIX)
        ? { category: 'share', event: shareEvents.decode(recorded) }
        : { category: 'quota', event: quotaEvents.decode(recorded) },
    load: async () => null,
    async dispatch(output): Promise<DocumentWrite[]> {
      if (output.type === 'UnindexReservation') {
        return [{ kind: 'delete', collection: PENDING_RESERVATIONS, id: output.reservationId }];
      }
      const document: PendingReservationDocument = {
        id: output.reservation.reservationId,
        ...output.reservation,
      };
      return [{ kind: 'put', collection: PENDING_RESERVATIONS, document }];
    },
  });
