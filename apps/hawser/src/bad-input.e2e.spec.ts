import { graphqlRequest } from './test-support/graphql-client.js';
import {
  ADMIN_TOKEN,
  eventually,
  startHawser,
  type ApiResponse,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';

/*
 * Bad input over real HTTP, route class by route class: every body shape a careless client
 * sends (null, an array, a scalar, a missing or non-object wrapper, a nested value of the wrong
 * type) is a Manila fault with a message and appends nothing; keys named like JavaScript object
 * members are ordinary keys in every map a user fills (404 until set, then stored, listed,
 * filtered and deleted like any other); a rule of a share the caller cannot see is an unknown
 * rule.
 */

const PROJECT = '77777777777777777777777777777777';
const MEMBER = `alice:${PROJECT}:member,reader`;
const OTHER = 'bob:88888888888888888888888888888888:member,reader';
const FAKE = 'deadbeef-dead-4eef-8eef-deadbeefdead';
/** The newest microversion: snapshot metadata exists from 2.73. */
const VERSION = '2.73';
const MEMBER_KEYS = [
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'prototype',
] as const;

/** A JSON text with `key` as a real key, `__proto__` included (an object literal would not). */
const jsonWith = (wrapper: string, key: string, value: unknown): string =>
  `{${JSON.stringify(wrapper)}:{${JSON.stringify(key)}:${JSON.stringify(value)}}}`;

/** The entries a response's map holds: compares `__proto__` as the key it is. */
const entriesOf = (map: unknown): [string, unknown][] => Object.entries(map as object);

interface Probe {
  readonly method: string;
  readonly path: string;
  /** The exact JSON text sent. */
  readonly body: string;
  readonly token?: string;
  readonly version?: string;
  readonly status: number;
  readonly message: RegExp;
}

/** The body shapes every route must refuse, by what the route wraps its object in. */
const WRAPPER_SHAPES = ['null', '[]', '[{}]', '5', '"text"', 'true', '{}'];
const wrappedShapes = (wrapper: string) =>
  ['null', '[]', '[1]', '5', '"text"', 'false'].map((inner) => `{"${wrapper}":${inner}}`);
/** Probes of one route, each body refused with 400 and its message. */
const invalidBodies = (
  method: string,
  path: string,
  bodies: readonly (readonly [body: string, message: RegExp])[],
  token?: string,
): Probe[] =>
  bodies.map(([body, message]) => ({ method, path, body, token, status: 400, message }));

describe('bad input over HTTP: Manila faults that change nothing, and user keys as ordinary keys', () => {
  let hawser: HawserTestServer;
  let typeId: string;
  let shareId: string;
  let snapshotId: string;
  let ruleId: string;
  let instanceId: string;
  let hiddenRuleId: string;
  let hiddenShareId: string;

  const as = (
    token: string,
    method: string,
    path: string,
    body?: unknown,
    version = VERSION,
  ): Promise<ApiResponse> => hawser.request(method, path, body, { token, version });
  const raw = (method: string, path: string, body: string, token = MEMBER, version = VERSION) =>
    hawser.request(method, path, undefined, { raw: body, token, version });

  /** Waits until the resource under `key` shows `field` = `wanted` (a rule has a state). */
  const until = (path: string, key: string, wanted: string, token = MEMBER, field = 'status') =>
    eventually(
      async () => ((await as(token, 'GET', path)).body[key]?.[field] === wanted ? true : undefined),
      10_000,
      `${path} to be ${wanted}`,
    );

  /** The position of the log's last event. */
  const logEnd = async (): Promise<number> => {
    let after = 0;
    for (;;) {
      const page = await hawser.request('GET', `/hawser/v1/events?limit=1000&after=${after}`);
      const events = page.body.events as { position: number }[];
      if (events.length > 0) after = events[events.length - 1]!.position;
      if (page.body.next_after === null) return after;
    }
  };
  /** Types of the events appended after `position`. */
  const appendedAfter = async (position: number): Promise<string[]> => {
    const page = await hawser.request('GET', `/hawser/v1/events?limit=20&after=${position}`);
    return (page.body.events as { type: string }[]).map((e) => e.type);
  };

  const expectFault = (answer: ApiResponse, status: number, message: RegExp, what: string) => {
    const faults = Object.values((answer.body ?? {}) as Record<string, unknown>);
    const fault = faults[0] as { code?: unknown; message?: unknown } | undefined;
    expect({ what, status: answer.status }).toEqual({ what, status });
    expect({ what, code: fault?.code }).toEqual({ what, code: status });
    expect({ what, message: fault?.message }).toEqual({
      what,
      message: expect.stringMatching(message),
    });
  };

  const expectNoItem = (answer: ApiResponse, what: string) =>
    expectFault(answer, 404, /^MetadataItemNotFound: Metadata item is not found\.$/, what);
  const expectNoRuleItem = (answer: ApiResponse, what: string) =>
    expectFault(answer, 404, /^Share access rule metadata does not exist\.$/, what);

  /** Sends each probe, one at a time, and checks its fault and that the log did not move. */
  const refuseAll = async (probes: readonly Probe[]) => {
    const end = await logEnd();
    for (const probe of probes) {
      const what = `${probe.method} ${probe.path} ${probe.body}`;
      const answer = await raw(probe.method, probe.path, probe.body, probe.token, probe.version);
      expectFault(answer, probe.status, probe.message, what);
      expect({ what, appended: await appendedAfter(end) }).toEqual({ what, appended: [] });
    }
  };

  beforeAll(async () => {
    hawser = await startHawser();
    const type = await hawser.request('POST', '/v2/types', {
      share_type: {
        name: 'default',
        extra_specs: { driver_handles_share_servers: 'false', snapshot_support: 'true' },
      },
    });
    expect(type.status).toBe(200);
    typeId = type.body.share_type.id;

    const create = async (token: string) => {
      const created = await as(token, 'POST', '/v2/shares', {
        share: { share_proto: 'NFS', size: 1, share_type: 'default' },
      });
      expect(created.status).toBe(200);
      const id = created.body.share.id as string;
      await until(`/v2/shares/${id}`, 'share', 'available', token);
      return id;
    };
    const allow = async (token: string, id: string) => {
      const allowed = await as(token, 'POST', `/v2/shares/${id}/action`, {
        allow_access: { access_type: 'ip', access_to: '10.0.0.1' },
      });
      expect(allowed.status).toBe(200);
      const rule = allowed.body.access.id as string;
      await until(`/v2/share-access-rules/${rule}`, 'access', 'active', token, 'state');
      return rule;
    };
    shareId = await create(MEMBER);
    ruleId = await allow(MEMBER, shareId);
    hiddenShareId = await create(OTHER);
    hiddenRuleId = await allow(OTHER, hiddenShareId);
    const snapshot = await as(MEMBER, 'POST', '/v2/snapshots', {
      snapshot: { share_id: shareId, name: 'snap' },
    });
    expect(snapshot.status).toBe(202);
    snapshotId = snapshot.body.snapshot.id;
    await until(`/v2/snapshots/${snapshotId}`, 'snapshot', 'available');
    const instances = await hawser.request('GET', `/v2/shares/${shareId}/instances`);
    instanceId = instances.body.share_instances[0].id;
  });
  afterAll(() => hawser.close());

  describe('body shapes, route class by route class', () => {
    it('answers a body that is not an object, or whose wrapper key is missing or not an object, with 400 or Manila’s 422', async () => {
      // Top-level scalars never reach a route: the parser refuses them as malformed JSON.
      const wrappers: [
        method: string,
        path: string,
        wrapper: string,
        status: number,
        token?: string,
      ][] = [
        ['POST', '/v2/shares', 'share', 422],
        ['PUT', `/v2/shares/${FAKE}`, 'share', 422],
        ['POST', '/v2/snapshots', 'snapshot', 422],
        ['PUT', `/v2/snapshots/${FAKE}`, 'snapshot', 422],
        ['POST', '/v2/share-replicas', 'share_replica', 422],
        ['PUT', `/v2/quota-sets/${PROJECT}`, 'quota_set', 400, ADMIN_TOKEN],
        ['POST', '/v2/types', 'share_type', 400, ADMIN_TOKEN],
        ['PUT', `/v2/types/${typeId}`, 'share_type', 400, ADMIN_TOKEN],
        ['POST', `/v2/types/${typeId}/extra_specs`, 'extra_specs', 400, ADMIN_TOKEN],
        ['POST', `/v2/shares/${shareId}/metadata`, 'metadata', 400],
        ['PUT', `/v2/shares/${shareId}/metadata`, 'metadata', 400],
        ['POST', `/v2/snapshots/${snapshotId}/metadata`, 'metadata', 400],
        ['PUT', `/v2/snapshots/${snapshotId}/metadata`, 'metadata', 400],
        ['PUT', `/v2/share-access-rules/${ruleId}/metadata`, 'metadata', 400],
      ];
      const probes: Probe[] = [];
      for (const [method, path, wrapper, status, token] of wrappers) {
        const missing =
          status === 422
            ? /^Unable to process the contained instructions: missing /
            : /^Malformed request body: missing /;
        const notObject =
          status === 422
            ? /^Unable to process the contained instructions: \w+ must be an object\.$/
            : /^Malformed request body: \w+ must be an object\.$/;
        for (const body of WRAPPER_SHAPES) {
          const scalar = !body.startsWith('[') && !body.startsWith('{');
          probes.push({
            method,
            path,
            body,
            token,
            status: scalar ? 400 : status,
            message: scalar ? /^Malformed request body$/ : missing,
          });
        }
        for (const body of wrappedShapes(wrapper)) {
          probes.push({ method, path, body, token, status, message: notObject });
        }
      }
      await refuseAll(probes);
    });

    it('answers an action body that is not one action with an object argument with 400', async () => {
      const routes: [path: string, action: string, message: RegExp, token: string][] = [
        [
          `/v2/shares/${shareId}/action`,
          'extend',
          /^New share size must be specified as an integer\.$/,
          MEMBER,
        ],
        [
          `/v2/shares/${shareId}/action`,
          'allow_access',
          /^Invalid request body: access must be an object\.$/,
          MEMBER,
        ],
        [
          `/v2/shares/${shareId}/action`,
          'deny_access',
          /^Invalid request body: access must be an object\.$/,
          MEMBER,
        ],
        [`/v2/shares/${shareId}/action`, 'reset_status', /^Must specify 'status'$/, ADMIN_TOKEN],
        [
          `/v2/snapshots/${snapshotId}/action`,
          'reset_status',
          /^Must specify 'status'$/,
          ADMIN_TOKEN,
        ],
        [
          `/v2/share_instances/${instanceId}/action`,
          'reset_status',
          /^Must specify 'status'$/,
          ADMIN_TOKEN,
        ],
        [`/v2/share-replicas/${FAKE}/action`, 'promote', /^.+$/, ADMIN_TOKEN],
        [
          `/v2/types/${typeId}/action`,
          'addProjectAccess',
          /^Malformed request body: addProjectAccess must be an object\.$/,
          ADMIN_TOKEN,
        ],
      ];
      const probes: Probe[] = [];
      for (const [path, action, message, token] of routes) {
        for (const body of WRAPPER_SHAPES) {
          const scalar = !body.startsWith('[') && !body.startsWith('{');
          probes.push({
            method: 'POST',
            path,
            body,
            token,
            status: 400,
            message: scalar
              ? /^Malformed request body$/
              : /^Malformed request body: exactly one action is expected\.$/,
          });
        }
        // A replica's action names it first: an unknown replica is its 404 whatever the argument.
        if (action === 'promote') continue;
        for (const body of wrappedShapes(action)) {
          probes.push({ method: 'POST', path, body, token, status: 400, message });
        }
      }
      await refuseAll(probes);
    });

    it('answers a nested value of the wrong type with 400 naming it', async () => {
      const share = (part: Record<string, unknown>) =>
        JSON.stringify({ share: { share_proto: 'NFS', size: 1, share_type: 'default', ...part } });
      const strings = /^Malformed request body: metadata must be an object of strings\.$/;
      const probes: Probe[] = [
        ...invalidBodies(
          'POST',
          '/v2/shares',
          [
            { share_proto: 5 },
            { size: [] },
            { size: 'big' },
            { name: 5 },
            { metadata: [1] },
            { metadata: 'text' },
            { metadata: { k: 5 } },
            { metadata: { k: null } },
            { scheduler_hints: 'text' },
            { scheduler_hints: [1] },
            { scheduler_hints: { same_host: 5 } },
            { scheduler_hints: { different_host: [5] } },
          ].map((part) => [
            share(part),
            /^(Invalid share: |Invalid input received: |Scheduler hint )/,
          ]),
        ),
        // A value of the wrong type is named as such, not by the length check beneath it.
        ...invalidBodies('POST', '/v2/shares', [
          ['{"share":{"size":1}}', /^Invalid share: share_proto must be a string\.$/],
          [share({ share_proto: 5 }), /^Invalid share: share_proto must be a string\.$/],
          [share({ share_type: 7 }), /^Invalid share: share_type must be a string\.$/],
          [
            share({ availability_zone: {} }),
            /^Invalid share: availability_zone must be a string\.$/,
          ],
          // In Manila's words, as the reference Manila answers them.
          [
            share({ size: 'big' }),
            /^Invalid input received: Share size 'big' must be an integer and greater than 0\.$/,
          ],
          [
            share({ size: 0 }),
            /^Invalid input received: Share size '0' must be an integer and greater than 0\.$/,
          ],
          [
            share({ share_proto: 'FOO' }),
            /^Invalid input received: Invalid share protocol provided: FOO\. It is either disabled or unsupported\. Available protocols: \['NFS', 'CIFS'\]\.$/,
          ],
          [share({ metadata: { '': 'v' } }), /^Metadata property key is blank\.$/],
          [share({ metadata: { k: '' } }), /^Metadata property value is blank\.$/],
          [
            share({ is_public: 'maybe' }),
            /^Unrecognized value 'maybe', acceptable values are: '0', '1', 'f', 'false', 'n', 'no', 'off', 'on', 't', 'true', 'y', 'yes'$/,
          ],
        ]),
        ...invalidBodies('PUT', `/v2/shares/${shareId}`, [
          ['{"share":{"display_name":5}}', /^Invalid share: display_name/],
          ['{"share":{"is_public":[]}}', /^Unrecognized value '\[\]', acceptable values are: /],
        ]),
        ...[`/v2/shares/${shareId}/metadata`, `/v2/snapshots/${snapshotId}/metadata`].flatMap(
          (path) =>
            invalidBodies(
              'POST',
              path,
              ['{"k":5}', '{"k":null}', '{"k":{}}', '{"k":[]}'].map((inner) => [
                `{"metadata":${inner}}`,
                strings,
              ]),
            ),
        ),
        ...invalidBodies('PUT', `/v2/share-access-rules/${ruleId}/metadata`, [
          ['{"metadata":{"k":5}}', strings],
        ]),
        ...invalidBodies('POST', '/v2/snapshots', [
          ['{"snapshot":{"share_id":5}}', /^Invalid snapshot: share_id/],
          [
            `{"snapshot":{"share_id":"${shareId}","metadata":"text"}}`,
            /^Invalid snapshot: metadata/,
          ],
          [`{"snapshot":{"share_id":"${shareId}","force":"maybe"}}`, /^Invalid snapshot: force/],
        ]),
        ...invalidBodies('PUT', `/v2/snapshots/${snapshotId}`, [
          ['{"snapshot":{"display_name":[]}}', /^Invalid snapshot: display_name/],
        ]),
        ...invalidBodies('POST', '/v2/share-replicas', [
          ['{"share_replica":{"share_id":5}}', /^Invalid share_replica: share_id/],
          [
            `{"share_replica":{"share_id":"${shareId}","scheduler_hints":"text"}}`,
            /^Invalid share_replica: scheduler_hints/,
          ],
        ]),
        ...invalidBodies('POST', `/v2/shares/${shareId}/action`, [
          ['{"extend":{"new_size":[]}}', /^New share size must be specified as an integer\.$/],
          ['{"extend":{"new_size":2,"force":null}}', /^Invalid boolean force : None$/],
          ['{"shrink":{"new_size":"1.5"}}', /^New share size must be specified as an integer\.$/],
          [
            '{"allow_access":{"access_type":5,"access_to":"10.0.0.2"}}',
            /^Invalid access: access_type/,
          ],
          [
            '{"allow_access":{"access_type":"ip","access_to":"10.0.0.2","metadata":[1]}}',
            /^Invalid access: metadata/,
          ],
          ['{"deny_access":{"access_id":5}}', /^Invalid access: access_id/],
        ]),
        ...invalidBodies(
          'POST',
          '/v2/types',
          [
            '{"share_type":{"name":5}}',
            '{"share_type":{"name":"x","extra_specs":[]}}',
            '{"share_type":{"name":"x","extra_specs":{"driver_handles_share_servers":5}}}',
            '{"share_type":{"name":"x","extra_specs":{"driver_handles_share_servers":"false"},"share_type_access:is_public":"maybe"}}',
          ].map((body) => [body, /^Invalid share type: /]),
          ADMIN_TOKEN,
        ),
        ...invalidBodies(
          'PUT',
          `/v2/types/${typeId}`,
          [
            ['{"share_type":{"name":5}}', /^name must be a string\.$/],
            ['{"share_type":{"description":5}}', /^description must be a string\.$/],
            [
              '{"share_type":{"share_type_access:is_public":"maybe"}}',
              /^share_type_access:is_public must be a boolean\.$/,
            ],
            ['{"share_type":{}}', /^Nothing to update/],
          ],
          ADMIN_TOKEN,
        ),
        ...invalidBodies(
          'POST',
          `/v2/types/${typeId}/extra_specs`,
          [['{"extra_specs":{"k":5}}', /^Invalid extra specs: /]],
          ADMIN_TOKEN,
        ),
        ...invalidBodies(
          'POST',
          `/v2/types/${typeId}/action`,
          [
            [
              '{"addProjectAccess":{"project":5}}',
              /^Bad project format: project is not in proper format \(5\)$/,
            ],
          ],
          ADMIN_TOKEN,
        ),
        ...invalidBodies(
          'PUT',
          `/v2/quota-sets/${PROJECT}`,
          [
            ['{"quota_set":{"shares":"many"}}', /^Quota limit for shares must be an integer\.$/],
            ['{"quota_set":{"shares":[]}}', /^Quota limit for shares must be an integer\.$/],
            ['{"quota_set":{"shares":1,"force":"maybe"}}', /^Invalid value for force/],
            ['{"quota_set":{"shares":1,"__proto__":1}}', /^Bad key\(s\) in quota set: __proto__$/],
            // Manila asks for a quota field before it looks for bad keys.
            ['{"quota_set":{"__proto__":1}}', /^Must supply at least one quota field to update\.$/],
            [
              '{"quota_set":{"shares":1,"constructor":1,"toString":2}}',
              /^Bad key\(s\) in quota set: constructor,toString$/,
            ],
          ],
          ADMIN_TOKEN,
        ),
      ];
      await refuseAll(probes);
    });

    it('answers PUT /types/{id} with {"share_type": null} with Manila\'s 400 (it was a 500)', async () => {
      const answer = await hawser.request('PUT', `/v2/types/${typeId}`, { share_type: null });
      expectFault(
        answer,
        400,
        /^Malformed request body: share_type must be an object\.$/,
        'PUT type',
      );
    });

    it('answers malformed GraphQL variables without a server error', async () => {
      for (const variables of [[1], 'text', 5, { filter: 5 }, { filter: { metadata: 'x' } }]) {
        const answer = await graphqlRequest(
          hawser.url,
          'query($filter: ShareFilter) { shares(filter: $filter) { nodes { id } } }',
          variables as Record<string, unknown>,
          MEMBER,
        );
        expect({ variables, status: answer.status }).toEqual({ variables, status: 400 });
        expect(answer.body.errors?.[0]?.message).toEqual(expect.any(String));
      }
    });
  });

  describe.each(MEMBER_KEYS)('the key %j is an ordinary key', (key) => {
    const value = `value of ${key}`;

    /**
     * The metadata item `key` of `/v2/{collection}/{id}`: 404 and unlisted until set, nothing
     * appended by asking; then set with `setMethod`, shown, listed (and `whileSet` holds), and
     * deleted.
     */
    const roundTrip = async (
      collection: 'shares' | 'snapshots',
      id: string,
      setMethod: 'POST' | 'PUT',
      whileSet: () => Promise<void> = async () => undefined,
    ) => {
      const item = `/v2/${collection}/${id}/metadata/${encodeURIComponent(key)}`;
      const filter = `/v2/${collection}?metadata=${encodeURIComponent(JSON.stringify({ [key]: value }))}`;
      const listed = async () =>
        (await as(MEMBER, 'GET', filter)).body[collection].map((s: { id: string }) => s.id);
      const end = await logEnd();
      expectNoItem(await as(MEMBER, 'GET', item), `GET ${key}`);
      expectNoItem(await as(MEMBER, 'DELETE', item), `DELETE ${key}`);
      expect(await listed()).toEqual([]);
      expect(await appendedAfter(end)).toEqual([]);

      const set = await raw(
        setMethod,
        `/v2/${collection}/${id}/metadata`,
        jsonWith('metadata', key, value),
      );
      expect(set.status).toBe(200);
      expect(entriesOf(set.body.metadata)).toEqual([[key, value]]);
      expect(entriesOf((await as(MEMBER, 'GET', item)).body.meta)).toEqual([[key, value]]);
      expect(await listed()).toEqual([id]);
      await whileSet();

      expect((await as(MEMBER, 'DELETE', item)).status).toBe(200);
      expectNoItem(await as(MEMBER, 'GET', item), `GET ${key} after`);
      expect((await as(MEMBER, 'GET', `/v2/${collection}/${id}/metadata`)).body.metadata).toEqual(
        {},
      );
    };

    it("of a share's metadata: 404 until set; then set, shown, listed, filtered and deleted", () =>
      roundTrip('shares', shareId, 'POST', async () => {
        expect(
          entriesOf((await as(MEMBER, 'GET', `/v2/shares/${shareId}`)).body.share.metadata),
        ).toEqual([[key, value]]);
        const graphql = await graphqlRequest(
          hawser.url,
          'query($filter: ShareFilter) { shares(filter: $filter) { nodes { id metadata { key value } } } }',
          { filter: { metadata: [{ key, value }] } },
          MEMBER,
        );
        expect(graphql.body.data.shares.nodes).toEqual([
          { id: shareId, metadata: [{ key, value }] },
        ]);
      }));

    it("of a snapshot's metadata: 404 until set; then set, shown, listed, filtered and deleted", () =>
      roundTrip('snapshots', snapshotId, 'PUT'));

    it("of an access rule's metadata: 404 until set; then set, shown and deleted", async () => {
      const item = `/v2/share-access-rules/${ruleId}/metadata/${encodeURIComponent(key)}`;
      const end = await logEnd();
      expectNoRuleItem(await as(MEMBER, 'DELETE', item), `DELETE ${key}`);
      expect(await appendedAfter(end)).toEqual([]);

      const set = await raw(
        'PUT',
        `/v2/share-access-rules/${ruleId}/metadata`,
        jsonWith('metadata', key, value),
      );
      expect(set.status).toBe(200);
      expect(entriesOf(set.body.metadata)).toEqual([[key, value]]);
      const shown = await as(MEMBER, 'GET', `/v2/share-access-rules/${ruleId}`);
      expect(entriesOf(shown.body.access.metadata)).toEqual([[key, value]]);

      expect((await as(MEMBER, 'DELETE', item)).status).toBe(200);
      expectNoRuleItem(await as(MEMBER, 'DELETE', item), `DELETE ${key} after`);
    });

    it("of a share type's extra specs: 404 until set; then set, shown, filtered and deleted", async () => {
      const item = `/v2/types/${typeId}/extra_specs/${encodeURIComponent(key)}`;
      const filter = `/v2/types?extra_specs=${encodeURIComponent(JSON.stringify({ [key]: value.replace(/ /g, '_') }))}`;
      const listed = async () =>
        (await as(ADMIN_TOKEN, 'GET', filter)).body.share_types.map((t: { id: string }) => t.id);
      const notFound = new RegExp(`^Share Type ${typeId} has no extra specs with key `);
      const end = await logEnd();
      expectFault(await as(ADMIN_TOKEN, 'GET', item), 404, notFound, `GET ${key}`);
      expectFault(await as(ADMIN_TOKEN, 'DELETE', item), 404, notFound, `DELETE ${key}`);
      expect(await listed()).toEqual([]);
      expect(await appendedAfter(end)).toEqual([]);

      const spec = value.replace(/ /g, '_');
      const set = await raw(
        'POST',
        `/v2/types/${typeId}/extra_specs`,
        jsonWith('extra_specs', key, spec),
        ADMIN_TOKEN,
      );
      expect(set.status).toBe(200);
      expect(entriesOf(set.body.extra_specs)).toEqual([[key, spec]]);
      expect(entriesOf((await as(ADMIN_TOKEN, 'GET', item)).body)).toEqual([[key, spec]]);
      const specs = (await as(ADMIN_TOKEN, 'GET', `/v2/types/${typeId}/extra_specs`)).body
        .extra_specs;
      expect(Object.hasOwn(specs, key) && specs[key]).toBe(spec);
      expect(await listed()).toEqual([typeId]);

      expect((await as(ADMIN_TOKEN, 'DELETE', item)).status).toBe(202);
      expectFault(await as(ADMIN_TOKEN, 'GET', item), 404, notFound, `GET ${key} after`);
    });

    it('in a new share and a new snapshot: stored and returned as given', async () => {
      const created = await raw(
        'POST',
        '/v2/shares',
        `{"share":{"share_proto":"NFS","size":1,"share_type":"default","metadata":${jsonWith('k', key, value).slice(5, -1)},"scheduler_hints":${jsonWith('k', key, 'x').slice(5, -1)}}}`,
      );
      expect(created.status).toBe(200);
      expect(entriesOf(created.body.share.metadata)).toEqual([[key, value]]);
      const id = created.body.share.id as string;
      const item = await as(MEMBER, 'GET', `/v2/shares/${id}/metadata/${encodeURIComponent(key)}`);
      expect(entriesOf(item.body.meta)).toEqual([[key, value]]);
      await until(`/v2/shares/${id}`, 'share', 'available');

      const snapshot = await raw(
        'POST',
        '/v2/snapshots',
        `{"snapshot":{"share_id":"${id}","metadata":${jsonWith('k', key, value).slice(5, -1)}}}`,
      );
      expect(snapshot.status).toBe(202);
      expect(entriesOf(snapshot.body.snapshot.metadata)).toEqual([[key, value]]);
    });
  });

  it('filters shares and snapshots by a metadata key of any character (it was a 500)', async () => {
    const key = "a-b.c d/'é";
    const filter = encodeURIComponent(JSON.stringify({ [key]: 'v' }).replace(/'/g, '\\u0027'));
    const shares = async () =>
      (await as(MEMBER, 'GET', `/v2/shares?metadata=${filter}`)).body.shares.map(
        (s: { id: string }) => s.id,
      );
    const snapshots = async () =>
      (await as(MEMBER, 'GET', `/v2/snapshots?metadata=${filter}`)).body.snapshots.map(
        (s: { id: string }) => s.id,
      );
    expect([await shares(), await snapshots()]).toEqual([[], []]);
    const body = { metadata: { [key]: 'v' } };
    expect((await as(MEMBER, 'POST', `/v2/shares/${shareId}/metadata`, body)).status).toBe(200);
    expect((await as(MEMBER, 'POST', `/v2/snapshots/${snapshotId}/metadata`, body)).status).toBe(
      200,
    );
    expect([await shares(), await snapshots()]).toEqual([[shareId], [snapshotId]]);
    const item = encodeURIComponent(key);
    expect((await as(MEMBER, 'DELETE', `/v2/shares/${shareId}/metadata/${item}`)).status).toBe(200);
    expect(
      (await as(MEMBER, 'DELETE', `/v2/snapshots/${snapshotId}/metadata/${item}`)).status,
    ).toBe(200);
  });

  describe('a rule of a share the caller cannot see', () => {
    it('is answered as an unknown rule, naming the rule only, and nothing is written', async () => {
      const end = await logEnd();
      const unknown = new RegExp(`^Access rule ${hiddenRuleId} could not be found\\.$`);
      for (const [method, path, body] of [
        ['GET', `/v2/share-access-rules/${hiddenRuleId}`, undefined],
        ['PUT', `/v2/share-access-rules/${hiddenRuleId}/metadata`, { metadata: { k: 'v' } }],
        ['DELETE', `/v2/share-access-rules/${hiddenRuleId}/metadata/k`, undefined],
      ] as const) {
        const answer = await as(MEMBER, method, path, body);
        expectFault(answer, 404, unknown, `${method} ${path}`);
        expect(JSON.stringify(answer.body)).not.toContain(hiddenShareId);
      }
      const stranger = await as(MEMBER, 'GET', `/v2/share-access-rules/${FAKE}`);
      expectFault(
        stranger,
        404,
        new RegExp(`^Access rule ${FAKE} could not be found\\.$`),
        'unknown',
      );
      expect(await appendedAfter(end)).toEqual([]);
      expect((await as(OTHER, 'GET', `/v2/share-access-rules/${hiddenRuleId}`)).status).toBe(200);
    });
  });
});
