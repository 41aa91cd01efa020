import type { ShareRecord } from '#hawser/projections';
import { readerOf, requesterOf } from './requester.js';
import type { RequestContext } from './request-context.js';

const record = { id: 's1', project_id: 'p1' } as unknown as ShareRecord;

const contextWith = (resource: RequestContext['resource']): RequestContext => ({
  requestId: 'req-1',
  baseUrl: 'http://localhost',
  urlProjectId: undefined,
  microversion: { major: 2, minor: 72, text: '2.72', experimental: false },
  auth: { userId: 'u1', projectId: 'p1', roles: ['member'], isAdmin: false },
  policy: undefined,
  action: undefined,
  resource,
});

describe("a request's reader and requester", () => {
  it('given the policy check read a share, then both carry its record for the use case', () => {
    const ctx = contextWith({ kind: 'share', document: record });

    expect(readerOf(ctx).checkedShare).toBe(record);
    expect(requesterOf(ctx).checkedShare).toBe(record);
  });

  it('given it read another kind of resource, then neither carries a share', () => {
    const ctx = contextWith({ kind: 'share_access_rule', document: record });

    expect(readerOf(ctx).checkedShare).toBeUndefined();
    expect(requesterOf(ctx).checkedShare).toBeUndefined();
  });

  it('given it read nothing, then neither carries a share', () => {
    expect(readerOf(contextWith(undefined)).checkedShare).toBeUndefined();
  });
});
