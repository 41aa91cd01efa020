import { serviceSummaryView, serviceView, type ServiceRow } from './service.view.js';

const row: ServiceRow = {
  id: 1,
  binary: 'manila-share',
  host: 'node1@local',
  zone: 'nova',
  status: 'enabled',
  state: 'up',
  updated_at: '2026-01-01T00:00:00.000Z',
};

describe('service view (os-services detail_list)', () => {
  it('is exactly {id, binary, host, zone, status, state, updated_at}', () => {
    expect(serviceView(row)).toEqual(row);
    expect(Object.keys(serviceView(row))).toEqual([
      'id',
      'binary',
      'host',
      'zone',
      'status',
      'state',
      'updated_at',
    ]);
  });
});

describe('service summary view (the answer to enable and disable)', () => {
  it('is exactly {host, binary, disabled}, at every microversion (Manila does not version it)', () => {
    const shown = serviceSummaryView({
      host: 'node1@local',
      binary: 'manila-share',
      disabled: true,
    });
    expect(Object.keys(shown)).toEqual(['host', 'binary', 'disabled']);
    expect(shown).toEqual({ host: 'node1@local', binary: 'manila-share', disabled: true });
  });
});
