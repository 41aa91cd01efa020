import { authContextOf, parseTokenBody } from './keystone-token.js';
import { KeystoneUnavailableError } from './keystone-unavailable.error.js';

// The shape Keystone 22 answers to GET /v3/auth/tokens?nocatalog (ids shortened).
const memberTokenBody = {
  token: {
    methods: ['password'],
    user: { domain: { id: 'default', name: 'Default' }, id: 'u-member', name: 'demo-member' },
    audit_ids: ['Bx4J7F2USXSZpICma-XNQA'],
    expires_at: '2026-11-22T06:46:00.000000Z',
    issued_at: '2026-11-22T05:46:00.000000Z',
    project: { domain: { id: 'default', name: 'Default' }, id: 'p-demo', name: 'demo' },
    is_domain: false,
    roles: [
      { id: 'r1', name: 'member' },
      { id: 'r2', name: 'Reader' },
    ],
  },
};

describe('Keystone token bodies', () => {
  it('given a project-scoped token, reads user, project, lower-cased roles and expiry', () => {
    const token = parseTokenBody(memberTokenBody);

    expect(token).toEqual({
      userId: 'u-member',
      projectId: 'p-demo',
      roles: ['member', 'reader'],
      expiresAtMs: Date.UTC(2026, 10, 22, 6, 46, 0),
    });
    expect(authContextOf(token)).toEqual({
      userId: 'u-member',
      projectId: 'p-demo',
      roles: ['member', 'reader'],
      isAdmin: false,
    });
  });

  it('given the admin role, the caller is an admin', () => {
    const body = structuredClone(memberTokenBody);
    body.token.roles.push({ id: 'r3', name: 'admin' });

    expect(authContextOf(parseTokenBody(body))?.isAdmin).toBe(true);
  });

  it('given an unscoped token (no project, no roles), no caller is named', () => {
    const { project: _project, roles: _roles, ...unscoped } = memberTokenBody.token;

    const token = parseTokenBody({ token: unscoped });

    expect(token.projectId).toBeUndefined();
    expect(token.roles).toEqual([]);
    expect(authContextOf(token)).toBeUndefined();
  });

  it('given a domain-scoped token, no caller is named', () => {
    const { project: _project, ...rest } = memberTokenBody.token;

    const token = parseTokenBody({ token: { ...rest, domain: { id: 'default' } } });

    expect(authContextOf(token)).toBeUndefined();
  });

  it.each([
    ['no token', {}],
    ['no user id', { token: { ...memberTokenBody.token, user: { name: 'x' } } }],
    ['no expiry', { token: { ...memberTokenBody.token, expires_at: undefined } }],
    ['an unreadable expiry', { token: { ...memberTokenBody.token, expires_at: 'soon' } }],
    ['not an object', 'token'],
  ])('given a body with %s, Keystone is treated as failing', (_what, body) => {
    expect(() => parseTokenBody(body)).toThrow(KeystoneUnavailableError);
  });
});
