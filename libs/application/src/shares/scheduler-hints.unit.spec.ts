import { affinityMetadataOf } from '#hawser/domain';
import { ManilaHttpError, notFoundError } from '#hawser/api-contracts';
import type { Caller, Requester } from '../requester.js';
import { createHintsOf } from './scheduler-hints.js';

const OWN = '11111111-1111-4111-8111-111111111111';
const OTHERS_PUBLIC = '22222222-2222-4222-8222-222222222222';
const ADMIN_METADATA_RULE = 'share:update_admin_only_metadata';

const member: Caller = { userId: 'u', projectId: 'p', roles: ['member'], isAdmin: false };
const admin: Caller = { userId: 'a', projectId: 'admin', roles: ['admin'], isAdmin: true };

/** A requester at `version` whose policy allows the admin-only metadata rule to admins only. */
const requesterOf = (caller: Caller, version = '2.67'): Requester => {
  const [major, minor] = version.split('.').map(Number) as [number, number];
  const allows = (rule: string) => rule !== ADMIN_METADATA_RULE || caller.isAdmin;
  return {
    caller,
    version: { major, minor, text: version },
    policy: {
      allows,
      enforce: (rule) => {
        if (!allows(rule)) throw new ManilaHttpError(403, `Policy doesn't allow ${rule}`);
      },
    },
    commandContext: () => ({ commandId: 'c' }),
  };
};

/** The shares a hint may name: one of the member's project, one public of another project. */
const findShare = (id: string) => {
  if (id === OWN) return Promise.resolve({ project_id: 'p' });
  if (id === OTHERS_PUBLIC) return Promise.resolve({ project_id: 'q' });
  return Promise.reject(notFoundError(`Share ${id} could not be found.`));
};

describe('the scheduler hints of a share create', () => {
  it('given no hints, then none are recorded and the metadata is as given', async () => {
    const hints = await createHintsOf({ metadata: { k: 'v' } }, requesterOf(member), findShare);
    expect(hints).toEqual({ schedulerHints: null, metadata: { k: 'v' } });
  });

  it('given hints before 2.65, then they are ignored', async () => {
    const body = { scheduler_hints: { same_host: OWN } };
    const hints = await createHintsOf(body, requesterOf(member, '2.64'), findShare);
    expect(hints).toEqual({ schedulerHints: null, metadata: {} });
  });

  it('given same_host naming its own share, then the hint and its metadata link are recorded', async () => {
    const body = { scheduler_hints: { same_host: OWN.toUpperCase() } };
    const hints = await createHintsOf(body, requesterOf(member), findShare);
    expect(hints.schedulerHints).toEqual({ sameHost: [OWN] });
    expect(hints.metadata).toEqual(affinityMetadataOf({ sameHost: [OWN] }));
  });

  it("given a member's hint to another project's public share, then it guides the placement but is not linked", async () => {
    const body = { scheduler_hints: { different_host: [OWN, OTHERS_PUBLIC] } };
    const hints = await createHintsOf(body, requesterOf(member), findShare);
    expect(hints.schedulerHints).toEqual({ differentHost: [OWN, OTHERS_PUBLIC] });
    expect(hints.metadata).toEqual(affinityMetadataOf({ differentHost: [OWN] }));
  });

  it('given only_host, then it is honoured for an admin and ignored for a member', async () => {
    const body = { scheduler_hints: { only_host: 'node@pool#a' } };
    await expect(createHintsOf(body, requesterOf(admin), findShare)).resolves.toMatchObject({
      schedulerHints: { onlyHost: 'node@pool#a' },
    });
    await expect(createHintsOf(body, requesterOf(member), findShare)).resolves.toEqual({
      schedulerHints: null,
      metadata: {},
    });
  });

  it.each([
    [{ same_host: 'not-a-uuid' }, 400, /not-a-uuid is not a valid uuid/],
    [{ same_host: 42 }, 400, /must be a share id or a list of share ids/],
    [{ only_host: 7 }, 400, /only_host must be a pool host string/],
    [{ same_host: '33333333-3333-4333-8333-333333333333' }, 404, /could not be found/],
  ])('given %j, then it is refused with %i', async (schedulerHints, status, message) => {
    const refusal = createHintsOf(
      { scheduler_hints: schedulerHints },
      requesterOf(member),
      findShare,
    );
    await expect(refusal).rejects.toMatchObject({
      status,
      message: expect.stringMatching(message),
    });
  });

  it('given admin-only affinity keys in the metadata from a member, then it is a 403', async () => {
    const body = { metadata: affinityMetadataOf({ sameHost: [OWN] }) };
    await expect(createHintsOf(body, requesterOf(member), findShare)).rejects.toMatchObject({
      status: 403,
    });
  });
});
