import { graphqlRequest } from './test-support/graphql-client.js';
import {
  eventually,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';

const MEMBER = 'alice:22222222222222222222222222222222:member,reader';
const OTHER = 'bob:33333333333333333333333333333333:member,reader';

const SHARE_FIELDS = `id name status progress size shareProto projectId isPublic host
  metadata { key value } exportLocations { path preferred isAdminOnly }
  replicas { id status replicaState host progress exportLocations { path } }`;

/** Requests a 1 GiB NFS share (of the `default` type unless `share` says otherwise); its id. */
const requestShare = async (
  hawser: HawserTestServer,
  share: Record<string, unknown>,
  token = MEMBER,
): Promise<string> => {
  const created = await hawser.request(
    'POST',
    '/v2/shares',
    { share: { share_proto: 'NFS', size: 1, share_type: 'default', ...share } },
    { token },
  );
  expect(created.status).toBe(200);
  return created.body.share.id as string;
};

describe('the GraphQL read API over HTTP', () => {
  let hawser: HawserTestServer;
  const query = (text: string, variables: Record<string, unknown> = {}, token = MEMBER) =>
    graphqlRequest(hawser.url, text, variables, token);

  const createShare = async (name: string, token = MEMBER, extra: Record<string, unknown> = {}) => {
    const id = await requestShare(hawser, { name, ...extra }, token);
    await eventually(async () => {
      const shown = await hawser.request('GET', `/v2/shares/${id}`, undefined, { token });
      return shown.body.share?.status === 'available' ? true : undefined;
    });
    return id;
  };

  let first: string;
  let othersPrivate: string;
  let othersPublic: string;

  beforeAll(async () => {
    hawser = await startHawser();
    const type = await hawser.request('POST', '/v2/types', {
      share_type: { name: 'default', extra_specs: { driver_handles_share_servers: 'false' } },
    });
    expect(type.status).toBe(200);
    first = await createShare('alpha', MEMBER, { metadata: { team: 'blue' } });
    await createShare('beta', MEMBER, { size: 2 });
    othersPrivate = await createShare('gamma', OTHER);
    // Only admins create public shares; this one belongs to bob's project.
    othersPublic = await createShare('delta', 'admin:33333333333333333333333333333333', {
      is_public: true,
    });
  });
  afterAll(() => hawser.close());

  it("lists the caller's shares with their replicas and export locations, admin-only fields null", async () => {
    const result = await query(`{ shares { totalCount nodes { ${SHARE_FIELDS} } } }`);
    expect(result.status).toBe(200);
    expect(result.body.errors).toBeUndefined();
    const { nodes, totalCount } = result.body.data.shares;
    expect(totalCount).toBe(2);
    expect(nodes.map((s: { name: string }) => s.name)).toEqual(['beta', 'alpha']);
    const alpha = nodes[1];
    expect(alpha).toMatchObject({
      id: first,
      status: 'available',
      progress: '100%',
      size: 1,
      shareProto: 'NFS',
      projectId: '22222222222222222222222222222222',
      isPublic: false,
      host: null,
      metadata: [{ key: 'team', value: 'blue' }],
    });
    expect(alpha.exportLocations.length).toBeGreaterThan(0);
    expect(alpha.exportLocations[0].isAdminOnly).toBeNull();
    expect(alpha.replicas).toHaveLength(1);
    expect(alpha.replicas[0]).toMatchObject({ status: 'available', host: null });
    expect(alpha.replicas[0].exportLocations[0].path).toBe(alpha.exportLocations[0].path);
  });

  it('shows admins the host of a share and of its replicas', async () => {
    const result = await query(
      `query($id: ID!) { share(id: $id) { host replicas { host } } }`,
      { id: first },
      'admin:22222222222222222222222222222222',
    );
    expect(result.body.errors).toBeUndefined();
    const { host, replicas } = result.body.data.share;
    expect(host).toMatch(/@.+#/);
    expect(replicas[0].host).toBe(host);
  });

  it('filters and sorts as the REST listing does, and pages with cursors', async () => {
    const byName = await query(`{ shares(filter: { nameContains: "lph" }) { nodes { name } } }`);
    expect(byName.body.data.shares.nodes).toEqual([{ name: 'alpha' }]);
    const byMetadata = await query(
      `{ shares(filter: { metadata: [{ key: "team", value: "blue" }] }) { nodes { id } } }`,
    );
    expect(byMetadata.body.data.shares.nodes).toEqual([{ id: first }]);

    const page = `query($after: String) {
      shares(first: 1, after: $after, sort: { key: SIZE, direction: ASC }) {
        totalCount nodes { name } pageInfo { endCursor hasNextPage } } }`;
    const one = await query(page);
    expect(one.body.data.shares).toMatchObject({
      totalCount: 2,
      nodes: [{ name: 'alpha' }],
      pageInfo: { hasNextPage: true },
    });
    const two = await query(page, { after: one.body.data.shares.pageInfo.endCursor });
    expect(two.body.data.shares).toMatchObject({
      nodes: [{ name: 'beta' }],
      pageInfo: { hasNextPage: false },
    });
  });

  it("keeps projects apart: another project's private share is not found, a public one is readable", async () => {
    const hidden = await query(`query($id: ID!) { share(id: $id) { id } }`, { id: othersPrivate });
    expect(hidden.status).toBe(200);
    expect(hidden.body.data).toBeNull();
    expect(hidden.body.errors[0]).toMatchObject({
      message: `Share ${othersPrivate} could not be found.`,
      extensions: { code: 'NOT_FOUND', status: 404 },
      path: ['share'],
    });

    const publicOne = await query(`query($id: ID!) { share(id: $id) { name isPublic } }`, {
      id: othersPublic,
    });
    expect(publicOne.body.data.share).toEqual({ name: 'delta', isPublic: true });

    const withPublic = await query(
      `{ shares(filter: { includePublic: true }) { nodes { name } } }`,
    );
    expect(withPublic.body.data.shares.nodes.map((s: { name: string }) => s.name).sort()).toEqual([
      'alpha',
      'beta',
      'delta',
    ]);
    // all_tenants is admin only, as in REST: a member still sees its own project.
    const allProjects = await query(`{ shares(filter: { allProjects: true }) { totalCount } }`);
    expect(allProjects.body.data.shares.totalCount).toBe(2);
    const asAdmin = await query(
      `{ shares(filter: { allProjects: true }) { totalCount } }`,
      {},
      'admin:22222222222222222222222222222222',
    );
    expect(asAdmin.body.data.shares.totalCount).toBe(4);
  });

  it("shows a share's history to its project, with the raw data for admins only", async () => {
    const history = `query($id: ID!) { share(id: $id) { events { revision type userId projectId causationId data } } }`;
    const own = await query(history, { id: first });
    expect(own.body.errors).toBeUndefined();
    const events = own.body.data.share.events;
    expect(events[0]).toMatchObject({
      revision: 0,
      type: 'ShareRequested',
      userId: 'alice',
      projectId: '22222222222222222222222222222222',
      data: null,
    });
    expect(events.map((e: { type: string }) => e.type)).toContain('ShareCreated');
    // What the share node appended says which event caused it.
    expect(events.some((e: { causationId: string | null }) => e.causationId !== null)).toBe(true);

    const asAdmin = await query(history, { id: first }, 'admin:22222222222222222222222222222222');
    expect(JSON.parse(asAdmin.body.data.share.events[0].data)).toMatchObject({ shareId: first });

    const notOwner = await query(history, { id: othersPublic });
    expect(notOwner.body.data.share.events).toBeNull();
    expect(notOwner.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', status: 403 });
  });

  it('lists share types, and pools with their capacity for admins only', async () => {
    const types = await query(`{ shareTypes { name isPublic extraSpecs { key value } } }`);
    expect(types.body.data.shareTypes).toEqual([
      expect.objectContaining({ name: 'default', isPublic: true }),
    ]);

    const pools = `{ pools { name totalCapacityGb freeCapacityGb allocatedCapacityGb } }`;
    const denied = await query(pools);
    expect(denied.status).toBe(200);
    expect(denied.body.errors[0]).toMatchObject({
      message: "Policy doesn't allow scheduler_stats:pools:index to be performed.",
      extensions: { code: 'FORBIDDEN' },
    });
    const admin = await eventually(async () => {
      const result = await query(pools, {}, 'admin:22222222222222222222222222222222');
      return result.body.data?.pools.length > 0 ? result.body.data.pools : undefined;
    });
    expect(admin[0].name).toMatch(/@.+#/);
    expect(admin[0].totalCapacityGb).toBeGreaterThan(0);
    expect(
      admin.reduce(
        (sum: number, p: { allocatedCapacityGb: number }) => sum + p.allocatedCapacityGb,
        0,
      ),
    ).toBeGreaterThan(0);
  });

  it("lists the user messages of the caller's project, e.g. why a share could not be placed", async () => {
    const nowhere = await hawser.request('POST', '/v2/types', {
      share_type: {
        name: 'nowhere',
        extra_specs: { driver_handles_share_servers: 'false', vendor_name: 'Nobody' },
      },
    });
    expect(nowhere.status).toBe(200);
    const id = await requestShare(hawser, { name: 'unplaced', share_type: 'nowhere' });
    const messages = `query($id: ID!) { messages(resourceId: $id) { resourceId resourceType actionId userMessage projectId } }`;
    const found = await eventually(async () => {
      const result = await query(messages, { id });
      return result.body.data?.messages.length > 0 ? result.body.data.messages : undefined;
    });
    expect(found[0]).toMatchObject({
      resourceId: id,
      resourceType: 'SHARE',
      actionId: '001',
      projectId: '22222222222222222222222222222222',
    });
    const others = await query(messages, { id }, OTHER);
    expect(others.body.data.messages).toEqual([]);
  });

  it('reads a filter, a sort or a field given as null as one left out', async () => {
    const plain = await query(`{ shares { totalCount nodes { id } } }`);
    const nulls = await query(
      `{ shares(filter: null, sort: null, after: null) { totalCount nodes { id } } }`,
    );
    const nullFields = await query(
      `{ shares(filter: { name: null, metadata: null, allProjects: null }) { totalCount nodes { id } } }`,
    );

    expect(plain.body.data.shares.totalCount).toBeGreaterThan(0);
    expect(nulls.body).toEqual(plain.body);
    expect(nullFields.body).toEqual(plain.body);
  });

  it('answers bad input with GraphQL errors, never a 500', async () => {
    const badCursor = await query(`{ shares(after: "bm9wZQ") { totalCount } }`);
    expect(badCursor.status).toBe(200);
    expect(badCursor.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT' });

    const tooMany = await query(`{ shares(first: 101) { totalCount } }`);
    expect(tooMany.body.errors[0]).toMatchObject({
      message: 'first must be from 0 to 100',
      extensions: { code: 'BAD_USER_INPUT', status: 400 },
    });

    const unknownField = await query(`{ shares { nodes { nope } } }`);
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');

    const malformed = await query(`{ shares {`);
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');

    const notUuid = await query(`{ share(id: "x") { id } }`);
    expect(notUuid.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('refuses a request without a valid token with 401, as the REST API does', async () => {
    const anonymous = await graphqlRequest(hawser.url, '{ shares { totalCount } }', {}, '');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({
      unauthorized: { code: 401, message: 'Authentication required' },
    });
  });

  it('refuses queries nested too deeply or too costly, with a GraphQL error', async () => {
    const deep = await query(`{ shares { nodes { replicas { exportLocations { path } } } } }`);
    expect(deep.body.errors).toBeUndefined();
    // A replica leads back to its share: a cycle a request could follow for ever.
    const cycle = (levels: number) =>
      `{ shares { nodes { id ${'replicas { share { '.repeat(levels)}id${' } }'.repeat(levels)} } } }`;
    const deepest = await query(cycle(2));
    expect(deepest.body.errors).toBeUndefined();
    const node = deepest.body.data.shares.nodes[0];
    expect(node.replicas[0].share.replicas[0].share.id).toBe(node.id);
    const tooDeep = await query(cycle(3));
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body.errors[0]).toMatchObject({
      message: 'The query is nested too deeply: the limit is 8 levels.',
      extensions: { limit: 'depth', maxDepth: 8 },
    });
    // Fragments count where they are spread.
    const viaFragment = await query(
      `{ shares { nodes { ...R } } } fragment R on Share { replicas { share { replicas { share { replicas { share { id } } } } } } }`,
    );
    expect(viaFragment.body.errors[0].extensions.limit).toBe('depth');

    const costly = await query(`{ shares(first: 100) { nodes {
      snapshots { id name status progress size createdAt updatedAt }
      accessRules { id accessTo accessLevel state }
      events(first: 200) { type recordedAt userId } } } }`);
    expect(costly.status).toBe(400);
    expect(costly.body.data).toBeUndefined();
    expect(costly.body.errors[0]).toMatchObject({
      message: 'The query is too complex: its estimated cost exceeds the limit of 20000.',
      extensions: { limit: 'complexity', maxComplexity: 20000 },
    });
  });

  it('refuses a document of more than 1,000 tokens before its parser recurses past the stack', async () => {
    const nestedList = (levels: number) =>
      query(`{ shares(filter: ${'['.repeat(levels)}${']'.repeat(levels)}) { totalCount } }`);
    // Within the bound the parser reads it, and validation refuses a list for the filter.
    const within = await nestedList(495);
    expect(within.status).toBe(400);
    expect(within.body.errors[0].message).toMatch(/^Expected value of type "ShareFilter"/);
    // 5,000 levels once overflowed the parser's stack ("Maximum call stack size exceeded").
    for (const levels of [501, 5_000]) {
      const refused = await nestedList(levels);
      expect(refused.status).toBe(400);
      expect(refused.body.errors[0].message).toMatch(
        /^Syntax Error: Document contains more tha[nt] 1000 tokens\. Parsing aborted\.$/,
      );
    }
  });

  it('shows affinity links on both shares once the links are written', async () => {
    const near = await createShare('near', MEMBER, { scheduler_hints: { same_host: first } });
    const affinity = `query($id: ID!) { share(id: $id) { affinity { sameHost differentHost } } }`;
    expect((await query(affinity, { id: near })).body.data.share.affinity).toEqual({
      sameHost: [first],
      differentHost: [],
    });
    // The named share gets the link a moment later, from the affinity-links process manager.
    const back = await eventually(async () => {
      const linked = (await query(affinity, { id: first })).body.data.share.affinity;
      return linked?.sameHost.includes(near) ? linked : undefined;
    });
    expect(back).toEqual({ sameHost: [near], differentHost: [] });
    const none = await query(affinity, { id: othersPublic });
    expect(none.body.data.share.affinity).toBeNull();
  });
});

describe('replicas in the GraphQL read API (a readable replicated share type)', () => {
  let hawser: HawserTestServer;

  beforeAll(async () => {
    hawser = await startHawser({ env: { HAWSER_REPLICA_STATE_UPDATE_INTERVAL_S: '1' } });
    const type = await hawser.request('POST', '/v2/types', {
      share_type: {
        name: 'readable',
        extra_specs: { driver_handles_share_servers: 'false', replication_type: 'readable' },
      },
    });
    expect(type.status).toBe(200);
  });
  afterAll(() => hawser.close());

  it("lists a share's active replica and its new replica as it becomes in_sync", async () => {
    const id = await requestShare(hawser, { share_type: 'readable', availability_zone: 'az-1' });
    const replicas = `query($id: ID!) { share(id: $id) { status replicationType hasReplicas
      replicas { id status replicaState availabilityZone host exportLocations { path } } } }`;
    const shareOf = async () =>
      (await graphqlRequest(hawser.url, replicas, { id }, MEMBER)).body.data.share;
    await eventually(async () => ((await shareOf()).status === 'available' ? true : undefined));
    const replica = await hawser.request(
      'POST',
      '/v2/share-replicas',
      { share_replica: { share_id: id, availability_zone: 'az-2' } },
      { token: MEMBER },
    );
    expect(replica.status).toBe(202);
    const replicaId = replica.body.share_replica.id as string;

    const share = await eventually(
      async () => {
        const current = await shareOf();
        const added = current.replicas.find((r: { id: string }) => r.id === replicaId);
        return added?.replicaState === 'in_sync' ? current : undefined;
      },
      15_000,
      'the replica to be in_sync',
    );
    expect(share).toMatchObject({ replicationType: 'readable', hasReplicas: true });
    expect(share.replicas).toEqual([
      expect.objectContaining({ status: 'available', replicaState: 'active', host: null }),
      expect.objectContaining({
        id: replicaId,
        status: 'available',
        replicaState: 'in_sync',
        availabilityZone: 'az-2',
      }),
    ]);
  });
});
