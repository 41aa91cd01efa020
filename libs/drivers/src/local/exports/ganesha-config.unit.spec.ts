import { pseudoPathOf, renderGaneshaExports, renderGaneshaServerConfig } from './ganesha-config.js';

describe('Ganesha configuration', () => {
  it('renders one export per instance, in export id order, one client block per rule in rule order', () => {
    const rendered = renderGaneshaExports([
      {
        exportId: 102,
        path: '/pools/node@b/p1/shares/i2',
        pseudo: pseudoPathOf('i2'),
        clients: [],
      },
      {
        exportId: 101,
        path: '/pools/node@b/p1/shares/i1',
        pseudo: pseudoPathOf('i1'),
        clients: [
          { address: '10.0.0.0/24', accessLevel: 'ro' },
          { address: 'fd00::/64', accessLevel: 'rw' },
          { address: '0.0.0.0/0', accessLevel: 'ro' },
        ],
      },
    ]);

    const blocks = rendered.split('EXPORT {').slice(1);
    expect(blocks).toHaveLength(2);
    expect(blocks[0]).toContain('Export_Id = 101;');
    expect(blocks[0]).toContain('Path = "/pools/node@b/p1/shares/i1";');
    expect(blocks[0]).toContain('Pseudo = "/share-i1";');
    expect(blocks[0]).toContain('Access_Type = None;');
    expect(blocks[0]).toContain('SecType = sys;');
    expect(blocks[0]?.match(/CLIENT \{[^}]*\}/g)).toEqual([
      'CLIENT { Clients = 10.0.0.0/24; Protocols = 4; Access_Type = RO; }',
      'CLIENT { Clients = fd00::/64; Protocols = 4; Access_Type = RW; }',
      'CLIENT { Clients = *; Protocols = 4; Access_Type = RO; }',
    ]);
    expect(blocks[1]).toContain('Export_Id = 102;');
    expect(blocks[1]).not.toContain('CLIENT');
  });

  it('quotes paths for the parser, escaping quotes and backslashes', () => {
    const rendered = renderGaneshaExports([
      { exportId: 1, path: '/data/a "b"\\c', pseudo: '/share-x', clients: [] },
    ]);
    expect(rendered).toContain('Path = "/data/a \\"b\\"\\\\c";');
  });

  it('includes the exports file by name (Ganesha runs in its directory) and binds where told', () => {
    const rendered = renderGaneshaServerConfig({
      port: 20490,
      bindAddress: '127.0.0.1',
      recoveryDir: '/pools/node@b/ganesha/recovery',
      exportsFile: '/pools/node@b/ganesha/exports.conf',
    });
    expect(rendered).toContain('NFS_Port = 20490;');
    expect(rendered).toContain('Bind_addr = 127.0.0.1;');
    expect(rendered).toContain('%include "exports.conf"');
    expect(rendered).not.toContain('%include "/pools');
  });
});
