import type { Client } from 'graphql-ws';
import { graphqlSocket } from './test-support/graphql-client.js';
import { startHawser, type HawserTestServer } from './test-support/hawser-test-server.js';
import { simulatedBackends } from './test-support/simulated-backends.js';

const PROJECT = '22222222222222222222222222222222';
const MEMBER = `alice:${PROJECT}:member,reader`;
const OTHER = 'bob:33333333333333333333333333333333:member,reader';

interface Change {
  shareId: string;
  status: string;
  progress: string | null;
  share: { name: string; host: string | null } | null;
}

/** Takes changes of one subscription until `last` holds for one, or fails after `timeoutMs`. */
const changesUntil = async (
  client: Client,
  query: string,
  variables: Record<string, unknown>,
  last: (change: Change) => boolean,
  onSubscribed: () => Promise<void> = async () => {},
  timeoutMs = 10_000,
): Promise<Change[]> => {
  const subscription = client.iterate<Record<string, Change>>({ query, variables });
  const changes: Change[] = [];
  const timer = setTimeout(() => void subscription.return?.(), timeoutMs);
  try {
    const first = subscription.next();
    // A refusal may arrive before it is awaited below; it is still thrown there.
    first.catch(() => undefined);
    // The server registers the subscription before it answers anything; give it that moment.
    await new Promise((resolve) => setTimeout(resolve, 100));
    await onSubscribed();
    for (let result = await first; !result.done; result = await subscription.next()) {
      if (result.value.errors) throw new Error(JSON.stringify(result.value.errors));
      const change = Object.values(result.value.data ?? {})[0] as Change;
      changes.push(change);
      if (last(change)) break;
    }
  } finally {
    clearTimeout(timer);
    await subscription.return?.();
  }
  return changes;
};

describe('GraphQL subscriptions over graphql-ws', () => {
  let hawser: HawserTestServer;
  let client: Client;

  // Every driver call takes a while, so a creation is seen in its steps.
  beforeAll(async () => {
    hawser = await startHawser({ backends: () => simulatedBackends({ latencyMs: 200 }) });
    const type = await hawser.request('POST', '/v2/types', {
      share_type: { name: 'default', extra_specs: { driver_handles_share_servers: 'false' } },
    });
    expect(type.status).toBe(200);
    client = graphqlSocket(hawser.url, MEMBER);
  });
  afterAll(async () => {
    await client.dispose();
    await hawser.close();
  });

  const create = async (name: string, token = MEMBER): Promise<string> => {
    const created = await hawser.request(
      'POST',
      '/v2/shares',
      { share: { share_proto: 'NFS', size: 1, name, share_type: 'default' } },
      { token },
    );
    expect(created.status).toBe(200);
    return created.body.share.id as string;
  };

  it("pushes a project's share from creating to available as the projection applies its events", async () => {
    let id = '';
    const changes = await changesUntil(
      client,
      `subscription { projectSharesChanged { shareId status progress share { name host } } }`,
      {},
      (change) => change.status === 'available',
      async () => {
        id = await create('followed');
      },
    );
    expect(changes.every((change) => change.shareId === id)).toBe(true);
    expect(changes[0]).toMatchObject({
      status: 'creating',
      share: { name: 'followed', host: null },
    });
    expect(changes[changes.length - 1]).toMatchObject({ status: 'available', progress: '100%' });
  });

  it('follows one share until it is deleted', async () => {
    const id = await create('short-lived');
    const changes = await changesUntil(
      client,
      `subscription($id: ID!) { shareChanged(id: $id) { shareId status share { name } } }`,
      { id },
      (change) => change.status === 'deleted',
      async () => {
        // Deleting waits for the share to be available; retry until the API accepts it.
        for (;;) {
          const deleted = await hawser.request('DELETE', `/v2/shares/${id}`, undefined, {
            token: MEMBER,
          });
          if (deleted.status === 202) return;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      },
    );
    const statuses = changes.map((change) => change.status);
    expect(statuses).toContain('deleting');
    expect(changes[changes.length - 1]).toEqual({ shareId: id, status: 'deleted', share: null });
  });

  it("refuses another project's share, another project's feed, and a connection without a valid token", async () => {
    const othersShare = await create('not-yours', OTHER);
    await expect(
      changesUntil(
        client,
        `subscription($id: ID!) { shareChanged(id: $id) { status } }`,
        { id: othersShare },
        () => true,
      ),
    ).rejects.toThrow(`Share ${othersShare} could not be found.`);
    await expect(
      changesUntil(
        client,
        `subscription { projectSharesChanged(projectId: "33333333333333333333333333333333") { status } }`,
        {},
        () => true,
      ),
    ).rejects.toThrow('"code":"FORBIDDEN"');

    const anonymous = graphqlSocket(hawser.url, 'no-project');
    await expect(
      changesUntil(anonymous, `subscription { projectSharesChanged { status } }`, {}, () => true),
    ).rejects.toHaveProperty('code', 4403);
    await anonymous.dispose();
  });
});
