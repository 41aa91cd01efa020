import { expect } from '@jest/globals';
import { eventually, type HawserTestServer } from './hawser-test-server.js';
import { cliSteps, findManilaCli, parseProperties, parseTable } from './manila-cli.js';

/**
 * Steps shared by the specs of shares served over the network (NFS, CIFS): a share through the
 * API and its export locations, its access rules allowed and denied until the share node has
 * applied them, a readable replica, and the same share through the manila CLI.
 */

export const MEMBER = 'alice:22222222222222222222222222222222:member,reader';
export const ADMIN = 'admin:22222222222222222222222222222222:admin,member,reader';

interface ExportLocationView {
  readonly path: string;
  readonly is_admin_only: boolean;
  readonly preferred: boolean;
}

export interface ServedShare {
  readonly shareId: string;
  /** The preferred location clients use. */
  readonly location: string;
  /** The admin-only location: the share's directory on the share node. */
  readonly directory: string;
}

/** The manila CLI as the members' project (noauth: its admin), at 2.72; each call's stdout. */
export const memberCli =
  (manila: string, hawser: HawserTestServer) =>
  async (...args: string[]): Promise<string> =>
    (
      await cliSteps(manila, {
        url: hawser.url,
        userId: 'alice',
        projectId: '22222222222222222222222222222222',
        microversion: '2.72',
      })(...args)
    ).stdout;

export const servedShareSteps = (hawser: HawserTestServer) => {
  const member = (method: string, route: string, body?: unknown) =>
    hawser.request(method, route, body, { token: MEMBER });
  const admin = (method: string, route: string, body?: unknown) =>
    hawser.request(method, route, body, { token: ADMIN });
  const locationsOf = async (route: string) =>
    (await admin('GET', route)).body.export_locations as ExportLocationView[];

  const ruleState = (id: string, state: string) =>
    eventually(
      async () => {
        const shown = await member('GET', `/v2/share-access-rules/${id}`);
        return shown.body.access?.state === state ? shown.body.access : undefined;
      },
      15_000,
      `rule ${id} to be ${state}`,
    );

  return {
    member,
    locationsOf,

    /** A `readable` share type and a share of it in az-1, available, with its locations. */
    async createShare(protocol: 'NFS' | 'CIFS'): Promise<ServedShare> {
      const type = await admin('POST', '/v2/types', {
        share_type: {
          name: 'readable',
          extra_specs: { driver_handles_share_servers: 'false', replication_type: 'readable' },
        },
      });
      expect(type.status).toBe(200);
      const created = await member('POST', '/v2/shares', {
        share: {
          share_proto: protocol,
          size: 1,
          share_type: 'readable',
          availability_zone: 'az-1',
        },
      });
      expect(created.status).toBe(200);
      const shareId = created.body.share.id as string;
      await eventually(
        async () =>
          (await member('GET', `/v2/shares/${shareId}`)).body.share?.status === 'available'
            ? true
            : undefined,
        15_000,
        'the share to be available',
      );
      const locations = await locationsOf(`/v2/shares/${shareId}/export_locations`);
      return {
        shareId,
        location: locations.find((l) => l.preferred && !l.is_admin_only)?.path ?? '',
        directory: locations.find((l) => l.is_admin_only)?.path ?? '',
      };
    },

    /** allow_access, then the rule reaching `state` (active unless told). */
    async allow(
      shareId: string,
      rule: { type: string; to: string; level: 'rw' | 'ro' },
      state = 'active',
    ): Promise<string> {
      const allowed = await member('POST', `/v2/shares/${shareId}/action`, {
        allow_access: { access_type: rule.type, access_to: rule.to, access_level: rule.level },
      });
      expect(allowed.status).toBe(200);
      const id = allowed.body.access.id as string;
      await ruleState(id, state);
      return id;
    },

    /** deny_access, then the rule gone. */
    async deny(shareId: string, id: string): Promise<void> {
      const denied = await member('POST', `/v2/shares/${shareId}/action`, {
        deny_access: { access_id: id },
      });
      expect(denied.status).toBe(202);
      await eventually(
        async () =>
          (await member('GET', `/v2/share-access-rules/${id}`)).status === 404 ? true : undefined,
        15_000,
        `rule ${id} to be gone`,
      );
    },

    /** A replica in az-2, available and in sync; its client location. */
    async createReadableReplica(shareId: string): Promise<string> {
      const created = await member('POST', '/v2/share-replicas', {
        share_replica: { share_id: shareId, availability_zone: 'az-2' },
      });
      expect(created.status).toBe(202);
      const replicaId = created.body.share_replica.id as string;
      await eventually(
        async () => {
          const replica = (await member('GET', `/v2/share-replicas/${replicaId}`)).body
            .share_replica;
          return replica?.status === 'available' && replica.replica_state === 'in_sync'
            ? true
            : undefined;
        },
        30_000,
        'the replica to be available and in sync',
      );
      return (await locationsOf(`/v2/share-replicas/${replicaId}/export-locations`)).find(
        (l) => !l.is_admin_only,
      )?.path as string;
    },

    /**
     * With the manila CLI: `create <protocol> 1`, `access-allow <name> <type> <to>`, both
     * waited for, then the preferred path `share-export-location-list` gives, and the directory.
     */
    async createWithCli(
      protocol: 'NFS' | 'CIFS',
      name: string,
      rule: { type: string; to: string },
    ): Promise<{ location: string; directory: string }> {
      const manila = findManilaCli();
      if (!manila) {
        throw new Error('no manila command on PATH (apt-get install python3-manilaclient)');
      }
      const cli = memberCli(manila, hawser);
      const created = parseProperties(
        await cli(
          'create',
          protocol,
          '1',
          '--name',
          name,
          '--share-type',
          'readable',
          '--availability-zone',
          'az-1',
        ),
      );
      await eventually(
        async () =>
          parseProperties(await cli('show', created.id as string)).status === 'available'
            ? true
            : undefined,
        30_000,
        'the CLI share to be available',
      );
      await cli('access-allow', name, rule.type, rule.to);
      await eventually(
        async () =>
          parseTable(await cli('access-list', name))[0]?.state === 'active' ? true : undefined,
        30_000,
        'the CLI rule to be active',
      );
      const rows = parseTable(await cli('share-export-location-list', name));
      const directory = (await locationsOf(`/v2/shares/${created.id}/export_locations`)).find(
        (l) => l.is_admin_only,
      )?.path as string;
      return { location: rows.find((row) => row.Preferred === 'True')?.Path as string, directory };
    },
  };
};
