import type { ExportedShare } from '../access-files.js';
import type { LocalShareMeta } from '../local-metadata.js';
import { renderSambaServerConfig, renderSambaShares } from './samba-config.js';

const share = (
  instanceId: string,
  rules: LocalShareMeta['rules'],
  extra: Partial<LocalShareMeta> = {},
): ExportedShare => ({
  dir: `/pools/node@b/p1/shares/${instanceId}`,
  meta: { instanceId, protocol: 'CIFS', rules, readOnly: false, ...extra } as LocalShareMeta,
});

const sectionOf = (rendered: string, instanceId: string): string[] => {
  const start = rendered.indexOf(`[share-${instanceId}]`);
  expect(start).toBeGreaterThanOrEqual(0);
  const end = rendered.indexOf('\n[', start + 1);
  return rendered
    .slice(start, end < 0 ? undefined : end)
    .split('\n')
    .slice(1)
    .map((line) => line.trim())
    .filter(Boolean);
};

describe('Samba configuration', () => {
  it('gives user rules as valid users and ro users as read list, guests out, every host allowed', () => {
    const rendered = renderSambaShares([
      share('i1', [
        { accessId: 'a', accessType: 'user', accessTo: 'alice', accessLevel: 'rw' },
        { accessId: 'b', accessType: 'user', accessTo: 'bob', accessLevel: 'ro' },
      ]),
    ]);
    const section = sectionOf(rendered, 'i1');
    expect(section).toContain('path = /pools/node@b/p1/shares/i1');
    expect(section).toContain('available = yes');
    expect(section).toContain('read only = no');
    expect(section).toContain('guest ok = no');
    expect(section).toContain('valid users = alice bob');
    expect(section).toContain('read list = bob');
    expect(section).toContain('hosts deny = ALL');
    expect(section).toContain('hosts allow = ALL');
  });

  it('gives ip rules as hosts allow with hosts deny = ALL (else Samba lets loopback in), guests in', () => {
    const rendered = renderSambaShares([
      share('i1', [
        { accessId: 'a', accessType: 'ip', accessTo: '10.0.0.0/24', accessLevel: 'rw' },
        { accessId: 'b', accessType: 'ip', accessTo: '127.0.0.1', accessLevel: 'rw' },
      ]),
    ]);
    const section = sectionOf(rendered, 'i1');
    expect(section).toContain('hosts allow = 10.0.0.0/24 127.0.0.1');
    expect(section).toContain('hosts deny = ALL');
    expect(section).toContain('guest ok = yes');
    expect(section.some((line) => line.startsWith('valid users'))).toBe(false);
  });

  it('makes a share without rules unavailable to everyone, a read-only instance read only, and skips NFS shares', () => {
    const rendered = renderSambaShares([
      share('i1', []),
      share('i2', [{ accessId: 'a', accessType: 'user', accessTo: 'alice', accessLevel: 'ro' }], {
        readOnly: true,
      }),
      share('i3', [], { protocol: 'NFS' }),
    ]);
    expect(sectionOf(rendered, 'i1')).toEqual(
      expect.arrayContaining(['available = no', 'hosts deny = ALL', 'guest ok = no']),
    );
    expect(sectionOf(rendered, 'i2')).toContain('read only = yes');
    expect(rendered).not.toContain('[share-i3]');
  });

  it('keeps the managed smbd to its own port, state, passdb and shares file', () => {
    const rendered = renderSambaServerConfig({
      port: 14450,
      bindAddress: '127.0.0.1',
      privateDir: '/d/samba/private',
      lockDir: '/d/samba/lock',
      stateDir: '/d/samba/state',
      cacheDir: '/d/samba/cache',
      pidDir: '/d/samba/run',
      logFile: '/d/samba/smbd.log',
      passdbFile: '/d/samba/private/passdb.tdb',
      sharesFile: '/d/smb-access.conf',
    });
    const lines = rendered.split('\n').map((line) => line.trim());
    expect(lines).toEqual(
      expect.arrayContaining([
        'smb ports = 14450',
        'interfaces = 127.0.0.1',
        'bind interfaces only = yes',
        'pid directory = /d/samba/run',
        'lock directory = /d/samba/lock',
        'passdb backend = tdbsam:/d/samba/private/passdb.tdb',
        'map to guest = Never',
        'include = /d/smb-access.conf',
      ]),
    );
  });
});
