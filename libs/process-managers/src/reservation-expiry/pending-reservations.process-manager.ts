import { SHARE_STREAM_PREFIX, type PendingReservation } from '#hawser/domain';
import type { DocumentStore } from '#hawser/read-models';
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

/** The pending reservations workflow's executor: its outputs are the index's puts and deletes. */
export const pendingReservationsProcessManager = (documents: DocumentStore): ProcessManager =>
  workflowProcessManager(pendingReservationsWorkflow, {
    decode: (recorded): PendingReservationsInput =>
      recorded.streamId.startsWith(SHARE_STREAM_PREFIX)
        ? { category: 'share', event: shareEvents.decode(recorded) }
        : { category: 'quota', event: quotaEvents.decode(recorded) },
    load: async () => null,
    async dispatch(output) {
      if (output.type === 'UnindexReservation') {
        const id = output.reservationId;
        await documents.write([{ kind: 'delete', collection: PENDING_RESERVATIONS, id }]);
        return;
      }
      const document: PendingReservationDocument = {
        id: output.reservation.reservationId,
        ...output.reservation,
      };
      await documents.write([{ kind: 'put', collection: PENDING_RESERVATIONS, document }]);
    },
  });
