import { createEventDecoder, eitherDecoder, EventDecodeError } from './event-decoder.js';
import type { RecordedEvent } from './event-store.port.js';
import { UpcasterRegistry } from './upcaster-registry.js';

type Opened = { type: 'DoorOpened'; data: { door: string; by: string | null } };
type Rang = { type: 'BellRang'; data: { times: number } };

const CATALOGUE = {
  DoorOpened: { category: 'door', version: 2 },
  BellRang: { category: 'bell', version: 1 },
};

const upcasters = new UpcasterRegistry().register('DoorOpened', 1, (data) => ({
  ...(data as { door: string }),
  by: null,
}));

const recorded = (type: string, data: unknown, schemaVersion: number): RecordedEvent => ({
  id: 'e-1',
  type,
  data,
  metadata: { schemaVersion, recordedAt: '2026-01-01T00:00:00.000Z' },
  streamId: 'door-1',
  revision: 0,
  position: 1,
});

const doors = createEventDecoder<Opened>('door', CATALOGUE, upcasters);
const bells = createEventDecoder<Rang>('bell', CATALOGUE, upcasters);

describe('createEventDecoder', () => {
  it('given an event at the current version, then it is returned as it was recorded', () => {
    const event = recorded('DoorOpened', { door: 'front', by: 'ann' }, 2);

    expect(doors.decode(event)).toBe(event);
  });

  it('given an older version, then its data is upcast and its metadata names the new version', () => {
    const event = doors.decode(recorded('DoorOpened', { door: 'front' }, 1));

    expect(event.data).toEqual({ door: 'front', by: null });
    expect(event.metadata.schemaVersion).toBe(2);
  });

  it('refuses an older version no upcaster brings to the current one', () => {
    const noSteps = createEventDecoder<Opened>('door', CATALOGUE, new UpcasterRegistry());

    expect(() => noSteps.decode(recorded('DoorOpened', { door: 'front' }, 1))).toThrow(
      'cannot decode DoorOpened v1 at door-1@0 as a door event: no upcaster',
    );
  });

  it('refuses a newer version and an unknown type with a typed error', () => {
    const refusal = (event: RecordedEvent) => {
      try {
        doors.decode(event);
      } catch (error) {
        return error instanceof EventDecodeError ? error.refusal : error;
      }
      return 'decoded';
    };

    expect(refusal(recorded('DoorOpened', { door: 'front', by: null }, 3))).toBe('newer version');
    expect(refusal(recorded('DoorSlammed', {}, 1))).toBe('unknown type');
    expect(refusal(recorded('toString', {}, 1))).toBe('unknown type');
  });
});

describe('eitherDecoder', () => {
  const either = eitherDecoder(doors, bells);

  it('decodes the events of both categories', () => {
    expect(either.decode(recorded('BellRang', { times: 2 }, 1)).type).toBe('BellRang');
    expect(either.decode(recorded('DoorOpened', { door: 'back' }, 1)).data).toEqual({
      door: 'back',
      by: null,
    });
    expect(either.categories).toEqual(['door', 'bell']);
  });

  it('refuses a type neither knows, and does not hide a refusal of the first', () => {
    expect(() => either.decode(recorded('DoorSlammed', {}, 1))).toThrow('unknown type');
    expect(() => either.decode(recorded('DoorOpened', {}, 5))).toThrow('newer version');
  });
});
