import { derivedId, HAWSER_NAMESPACE, uuidV5 } from './deterministic-id.js';

const CAUSE = '0b6f1c1e-2a57-4a0e-9b59-4c8f5d7a1e11';
const LONG_NAME = `zone-é-日本${'x'.repeat(300)}`;

describe('uuidV5', () => {
  it('matches the RFC 4122 DNS-namespace vector for python.org', () => {
    // Python: uuid.uuid5(uuid.NAMESPACE_DNS, 'python.org')
    expect(uuidV5('python.org', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe(
      '886313e1-3b8a-5372-9b90-0c9aee199e5d',
    );
  });

  it.each([
    // Python: str(uuid.uuid5(uuid.UUID(namespace), name))
    [`${CAUSE}:schedule`, HAWSER_NAMESPACE, 'b5a4ab7f-f9d3-58f0-9826-fa3fd5dcb803'],
    [`${CAUSE}:0`, HAWSER_NAMESPACE, '67013bea-3f5f-5a6d-89d4-f3c2b40644b0'],
    ['', HAWSER_NAMESPACE, '4c7fccbe-7c02-5eb1-bf65-3de5601defa1'],
    [LONG_NAME, HAWSER_NAMESPACE, 'eea3415a-8a80-5963-ab49-945ed3f556ed'],
    [
      'https://example.org/ü',
      '6ba7b811-9dad-11d1-80b4-00c04fd430c8',
      '4e935be2-141c-5c1c-ab16-33f53ec57da4',
    ],
  ])('gives RFC 4122 version 5 of %j in namespace %s', (name, namespace, expected) => {
    expect(uuidV5(name, namespace)).toBe(expected);
  });

  it('gives the same ids before and after a long name, in any namespace order', () => {
    const short = uuidV5(`${CAUSE}:0`);

    uuidV5(LONG_NAME);
    uuidV5('python.org', '6ba7b810-9dad-11d1-80b4-00c04fd430c8');

    expect(uuidV5(`${CAUSE}:0`)).toBe(short);
  });

  it('refuses a namespace that is not a UUID', () => {
    expect(() => uuidV5('name', 'not-a-uuid')).toThrow('invalid namespace UUID not-a-uuid');
  });

  it('derives the same id for the same cause and purpose, and different ones otherwise', () => {
    expect(derivedId(CAUSE, 'schedule')).toBe(uuidV5(`${CAUSE}:schedule`));
    expect(derivedId(CAUSE, 'schedule')).toBe(derivedId(CAUSE, 'schedule'));
    expect(derivedId(CAUSE, 'schedule')).not.toBe(derivedId(CAUSE, 'create'));
    expect(derivedId(CAUSE, 0)).toBe('67013bea-3f5f-5a6d-89d4-f3c2b40644b0');
    expect(derivedId(CAUSE, 0)).not.toBe(derivedId(CAUSE, 1));
  });

  it("given a cause of version 7, derives a version 8 id that begins with the cause's time and ends with the version 5 id", () => {
    const cause = '0192f0a1-3b4c-7abc-9def-0123456789ab';

    const derived = derivedId(cause, 0);

    expect(derived).toMatch(/^0192f0a1-3b4c-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(derived.slice(15)).toBe(uuidV5(`${cause}:0`).slice(15));
    expect(derivedId(cause, 0)).toBe(derived);
    expect(derivedId(cause, 1)).not.toBe(derived);
  });

  it("given ids derived from ids derived from causes of version 7, then they keep the first cause's time, and sort as the causes were made", () => {
    const earlier = '0192f0a1-3b4c-7abc-9def-0123456789ab';
    const later = '0192f0a1-3b4d-7000-8000-000000000000';

    const fromEarlier = derivedId(derivedId(earlier, 'schedule'), 0);
    const fromLater = derivedId(derivedId(later, 'schedule'), 0);

    expect(fromEarlier.slice(0, 13)).toBe(earlier.slice(0, 13));
    expect(fromLater.slice(0, 13)).toBe(later.slice(0, 13));
    expect(fromEarlier < fromLater).toBe(true);
  });
});
