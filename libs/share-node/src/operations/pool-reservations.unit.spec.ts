import { PoolReservations } from './pool-reservations.js';

describe('the node ledger of placements its reports do not show yet', () => {
  it('holds a placement until a report measured after the driver was done with it', () => {
    const ledger = new PoolReservations();
    ledger.reserve('n@b#p0', 'i1', 30);
    ledger.reserve('n@b#p0', 'i2', 20);
    ledger.reserve('n@b#p1', 'i3', 5);
    expect(ledger.reservedGiB('n@b#p0')).toBe(50);

    ledger.settle('i1', 1_000);
    ledger.measured('n@b#p0', 999); // measured before the creation ended: not in the figures
    expect(ledger.reservedGiB('n@b#p0')).toBe(50);
    ledger.measured('n@b#p0', 1_000);
    expect(ledger.reservedGiB('n@b#p0')).toBe(20); // i2 is still being created
    expect(ledger.holds('i1')).toBe(false);
    expect(ledger.reservedGiB('n@b#p1')).toBe(5);
  });

  it('keeps the first settle time of an instance', () => {
    const ledger = new PoolReservations();
    ledger.reserve('n@b#p0', 'i1', 30);
    ledger.settle('i1', 1_000);
    ledger.settle('i1', 5_000);
    ledger.measured('n@b#p0', 2_000);
    expect(ledger.reservedGiB('n@b#p0')).toBe(0);
  });
});

describe('shares and replicas in one ledger', () => {
  it('counts a replica against its pool like a share, and each leaves on its own report', () => {
    const ledger = new PoolReservations();
    ledger.reserve('n@b#p0', 'share-i', 30);
    ledger.reserve('n@b#p0', 'replica-r', 60);
    expect(ledger.reservedGiB('n@b#p0')).toBe(90);

    // The replica's creation failed at 1000: the first report measured after it drops it,
    // while the share still being created stays.
    ledger.settle('replica-r', 1_000);
    ledger.measured('n@b#p0', 1_500);
    expect(ledger.holds('replica-r')).toBe(false);
    expect(ledger.reservedGiB('n@b#p0')).toBe(30);
  });
});
