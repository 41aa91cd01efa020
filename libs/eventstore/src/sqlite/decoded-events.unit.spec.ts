import type { RecordedEvent } from '../event-store.port.js';
import { DecodedEvents } from './decoded-events.js';

const eventAt = (position: number, id = `e-${position}`): RecordedEvent => ({
  id,
  type: 'ThingHappened',
  data: {},
  metadata: { schemaVersion: 1, recordedAt: '' },
  streamId: 'thing-1',
  revision: position - 1,
  position,
});

describe('DecodedEvents', () => {
  it('given events decoded, when the same position is asked with its id, then it is the same object', () => {
    const decoded = new DecodedEvents(10);
    const event = eventAt(1);
    decoded.add(event);

    expect(decoded.get(1, 'e-1')).toBe(event);
  });

  it('given an event kept at a position, when asked with another id, then it is not answered', () => {
    const decoded = new DecodedEvents(10);
    decoded.add(eventAt(1));

    expect(decoded.get(1, 'another')).toBeUndefined();
    expect(decoded.get(2, 'e-2')).toBeUndefined();
  });

  it('given more events than its capacity, when one more is added, then the oldest is dropped and the size stays bounded', () => {
    const decoded = new DecodedEvents(3);
    for (let position = 1; position <= 5; position += 1) decoded.add(eventAt(position));

    expect(decoded.size).toBe(3);
    expect(decoded.get(1, 'e-1')).toBeUndefined();
    expect(decoded.get(2, 'e-2')).toBeUndefined();
    expect(decoded.get(5, 'e-5')?.position).toBe(5);
  });
});
