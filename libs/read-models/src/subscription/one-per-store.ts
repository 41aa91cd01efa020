import type { EventStore } from '#hawser/eventstore';

/**
 * What the followers of one event store share within a process (its log reader, its append
 * subscription): made on first use, and gone with the store.
 */
export function onePerStore<T>(make: (store: EventStore) => T): (store: EventStore) => T {
  const made = new WeakMap<EventStore, T>();
  return (store) => {
    let value = made.get(store);
    if (value === undefined) {
      value = make(store);
      made.set(store, value);
    }
    return value;
  };
}
