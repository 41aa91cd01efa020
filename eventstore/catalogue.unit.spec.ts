import { createUpcasters, EVENT_CATALOGUE } from './catalogue.js';

describe('event catalogue', () => {
  it('writes each event at the version its upcasters lead to', () => {
    const upcasters = createUpcasters();
    for (const [type, entry] of Object.entries(EVENT_CATALOGUE)) {
      expect({ type, version: upcasters.currentVersion(type) }).toEqual({
        type,
        version: entry.version,
      });
    }
  });

  it('names event types as past-tense facts in PascalCase', () => {
    for (const type of Object.keys(EVENT_CATALOGUE)) {
      expect(type).toMatch(/^[A-Z][A-Za-z]+(ed|Set|Unset|Reset)$/);
    }
  });
});
