/** One row of Manila's services listing (os-services view). */
export interface ServiceRow {
  readonly id: number;
  readonly binary: 'manila-share' | 'manila-scheduler';
  readonly host: string;
  readonly zone: string;
  readonly status: 'enabled' | 'disabled';
  readonly state: 'up' | 'down';
  readonly updated_at: string | null;
}

export const serviceView = (row: ServiceRow) => ({
  id: row.id,
  binary: row.binary,
  host: row.host,
  zone: row.zone,
  status: row.status,
  state: row.state,
  updated_at: row.updated_at,
});

/** Manila's answer to `PUT /services/enable|disable` (its summary view): not wrapped. */
export const serviceSummaryView = (service: {
  readonly host: string;
  readonly binary: string;
  readonly disabled: boolean;
}) => ({ host: service.host, binary: service.binary, disabled: service.disabled });
