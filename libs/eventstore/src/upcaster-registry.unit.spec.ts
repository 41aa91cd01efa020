import { UpcasterRegistry } from './upcaster-registry.js';

type V1 = { size: number };
type V2 = V1 & { sizeGb: number };

const toV2 = (data: unknown): V2 => ({ ...(data as V1), sizeGb: (data as V1).size });
const toV3 = (data: unknown) => ({ ...(data as V2), shareType: 'default' });

describe('UpcasterRegistry', () => {
  it('writes a type without upcasters at version 1', () => {
    expect(new UpcasterRegistry().currentVersion('ShareRequested')).toBe(1);
  });

  it('writes a type at one past its newest upcaster, whatever the registration order', () => {
    const registry = new UpcasterRegistry()
      .register('ShareRequested', 2, toV3)
      .register('ShareRequested', 1, toV2);

    expect(registry.currentVersion('ShareRequested')).toBe(3);
    expect(registry.currentVersion('ShareCreated')).toBe(1);
  });

  it('upcasts through every step from the stored version to the current one, in order', () => {
    const registry = new UpcasterRegistry()
      .register('ShareRequested', 1, toV2)
      .register('ShareRequested', 2, toV3);

    expect(registry.upcast('ShareRequested', 1, { size: 10 })).toEqual({
      version: 3,
      data: { size: 10, sizeGb: 10, shareType: 'default' },
    });
    expect(registry.upcast('ShareRequested', 2, { size: 5, sizeGb: 5 })).toEqual({
      version: 3,
      data: { size: 5, sizeGb: 5, shareType: 'default' },
    });
  });

  it('leaves data at the current version untouched', () => {
    const registry = new UpcasterRegistry().register('ShareRequested', 1, toV2);
    const data = { size: 1, sizeGb: 1 };

    const result = registry.upcast('ShareRequested', 2, data);

    expect(result.version).toBe(2);
    expect(result.data).toBe(data);
  });

  it('leaves types without upcasters untouched', () => {
    const data = { host: 'node1@lvm#pool' };

    expect(new UpcasterRegistry().upcast('ShareScheduled', 1, data)).toEqual({ version: 1, data });
  });

  it('refuses a second upcaster for the same type and version', () => {
    const registry = new UpcasterRegistry().register('ShareRequested', 1, toV2);

    expect(() => registry.register('ShareRequested', 1, toV2)).toThrow(
      'an upcaster for ShareRequested v1 is registered already',
    );
  });
});
