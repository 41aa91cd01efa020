import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  describeWithKeystone,
  hawserKeystoneEnv,
  keystoneUrl,
} from '../../api/src/http/keystone/test-support/keystone-test-users.js';
import { fromSnapshotBackends } from '../../hawser/src/test-support/from-snapshot-backends.js';
import {
  addInSyncReplica,
  createReadableType,
} from '../../hawser/src/test-support/replicated-share.js';
import {
  eventually,
  startHawser,
  type HawserTestServer,
} from '../../hawser/src/test-support/hawser-test-server.js';
import {
  chromiumPath,
  describeInBrowser,
  documentStillMarked,
  launchBrowser,
  markDocument,
  progressSeen,
  recordProgress,
  screenshot,
  signIn,
} from './test-support/console-browser.js';

const PROJECT = '44444444444444444444444444444444';
const MEMBER = `alice:${PROJECT}:member`;
const READER = `carol:${PROJECT}:reader`;
// noauth's `user:project` without roles is an admin, as in Manila.
const ADMIN = 'root:55555555555555555555555555555555';
const MIB = 1024 * 1024;
const SLOW = 60_000;

describeInBrowser('web console in Chromium, against a real Hawser (embedded default)', () => {
  let hawser: HawserTestServer;
  let browser: Browser;
  let page: Page;

  /** A share of type `readable` requested through the API by `token`'s user; its id. */
  const requestShare = async (token: string, fields: Record<string, unknown>): Promise<string> => {
    const created = await hawser.request(
      'POST',
      '/v2/shares',
      { share: { share_proto: 'NFS', size: 1, share_type: 'readable', ...fields } },
      { token },
    );
    expect(created.status).toBe(200);
    return created.body.share.id as string;
  };

  /** An available share of the member's, made through the API (what the page offers as hints). */
  const memberShare = async (name: string): Promise<string> => {
    const id = await requestShare(MEMBER, { availability_zone: 'az-1', name });
    await eventually(
      async () =>
        (await hawser.request('GET', `/v2/shares/${id}`)).body.share.status === 'available'
          ? true
          : undefined,
      20_000,
      `share ${name} to be available`,
    );
    return id;
  };

  /** The share's directory on the local back end (its admin-only export location). */
  const directoryOf = async (shareId: string): Promise<string> => {
    const listed = await hawser.request('GET', `/v2/shares/${shareId}/export_locations`);
    const local = (listed.body.export_locations as { path: string; is_admin_only: boolean }[]).find(
      (l) => l.is_admin_only,
    );
    return (local as { path: string }).path;
  };

  const shareIdInUrl = () => decodeURIComponent(new URL(page.url()).hash.split('/')[2] ?? '');
  const section = (title: string) => page.getByRole('region', { name: title });

  beforeAll(async () => {
    hawser = await startHawser({
      backends: (dataDir) => fromSnapshotBackends(dataDir),
      env: {
        HAWSER_USE_SCHEDULER_CREATING_SHARE_FROM_SNAPSHOT: 'true',
        HAWSER_SHARE_STATUS_POLL_MS: '100',
        HAWSER_REPLICA_STATE_UPDATE_INTERVAL_S: '1',
        HAWSER_REPORT_INTERVAL_S: '1',
      },
    });
    await createReadableType(hawser.request, { create_share_from_snapshot_support: 'true' });
    browser = await launchBrowser();
  }, SLOW);

  afterAll(async () => {
    await browser?.close();
    await hawser?.close();
  });

  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  });
  afterEach(async () => {
    await page.close();
  });

  it(
    'a member creates a share apart from another, follows it to available, allows access, snapshots it, clones it into the other zone with a rising progress bar, adds and promotes a replica and reads its history, all without a reload',
    async () => {
      const anchor = await memberShare('anchor');
      await signIn(page, hawser.url, MEMBER);
      await markDocument(page);
      await page.getByRole('row').filter({ hasText: 'anchor' }).waitFor();
      await screenshot(page, 'shares');

      // Create, placed apart from the anchor (an anti-affinity hint chosen from the user's shares).
      await page.getByRole('link', { name: 'Create share' }).click();
      await page.getByLabel('Name', { exact: true }).fill('web');
      await page.getByLabel('Share type').selectOption('readable');
      await page.getByLabel('Availability zone').selectOption('az-1');
      await page.getByLabel(/Place apart from/).selectOption(anchor);
      await screenshot(page, 'create-share');
      await page.getByRole('button', { name: 'Create' }).click();
      await page.getByRole('heading', { name: 'web' }).waitFor();
      const web = shareIdInUrl();
      await page.getByTestId('share-status').getByText('available').waitFor({ timeout: 30_000 });
      const shown = (await hawser.request('GET', `/v2/shares/${web}`)).body.share;
      const anchorHost = (await hawser.request('GET', `/v2/shares/${anchor}`)).body.share.host;
      expect(shown.host).not.toBe(anchorHost);
      expect(
        await section('Placement links').getByText(`Placed apart from ${anchor}`).count(),
      ).toBe(1);

      // Allow access.
      await section('Access rules').getByLabel('To').fill('10.0.0.0/24');
      await section('Access rules').getByRole('button', { name: 'Allow access' }).click();
      await section('Access rules')
        .getByRole('row')
        .filter({ hasText: '10.0.0.0/24' })
        .filter({ hasText: 'active' })
        .waitFor({ timeout: 20_000 });

      // Data to copy, so that the clone's copy takes a while and shows its progress.
      fs.writeFileSync(path.join(await directoryOf(web), 'data.bin'), Buffer.alloc(8 * MIB, 7));

      // Snapshot.
      await section('Snapshots').getByLabel('Snapshot name').fill('snap');
      await section('Snapshots').getByRole('button', { name: 'Take snapshot' }).click();
      await section('Snapshots')
        .getByRole('row')
        .filter({ hasText: 'snap' })
        .filter({ hasText: 'available' })
        .waitFor({ timeout: 20_000 });
      await screenshot(page, 'share');

      // A share from the snapshot, in the other zone: its progress bar rises to 100.
      await section('Snapshots')
        .getByRole('link', { name: /Create a share from snapshot snap/ })
        .click();
      await page.getByLabel('Name', { exact: true }).fill('clone');
      await page.getByLabel('Availability zone').selectOption('az-2');
      await page.getByRole('button', { name: 'Create' }).click();
      await page.getByRole('heading', { name: 'clone' }).waitFor();
      await recordProgress(page);
      await page.getByTestId('share-status').getByText('available').waitFor({ timeout: 30_000 });
      const seen = await eventually(
        async () => {
          const values = await progressSeen(page);
          return values[values.length - 1] === 100 ? values : undefined;
        },
        10_000,
        'the progress bar to read 100',
        100,
      );
      expect(seen[seen.length - 1]).toBe(100);
      expect(seen.filter((p) => p > 0 && p < 100).length).toBeGreaterThan(0);
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
      expect(await page.getByText('az-2').first().isVisible()).toBe(true);

      // A replica in az-2, then promoted.
      await page.goto(`${hawser.url}/ui/#/shares/${web}`);
      await markDocument(page);
      const replicas = section('Replicas');
      await replicas.getByLabel('Zone').selectOption('az-2');
      await replicas.getByRole('button', { name: 'Add replica' }).click();
      const inAz2 = replicas.getByRole('row').filter({ hasText: 'az-2' });
      await inAz2.filter({ hasText: 'in_sync' }).waitFor({ timeout: 30_000 });
      await replicas.getByRole('button', { name: 'Promote replica in az-2' }).click();
      await inAz2.filter({ hasText: 'active' }).waitFor({ timeout: 30_000 });
      await replicas
        .getByRole('row')
        .filter({ hasText: 'az-1' })
        .filter({ hasNotText: /\bactive\b/ })
        .waitFor({ timeout: 30_000 });

      // The history: who did what, caused by what.
      const history = section('History');
      await history
        .getByText('ReplicaPromoted', { exact: true })
        .first()
        .waitFor({ timeout: 10_000 });
      expect(await history.getByText('ShareAccessAllowed', { exact: true }).count()).toBe(1);
      expect(await history.getByText(/by alice/).count()).toBeGreaterThan(0);
      expect(await history.getByText(/caused by /).count()).toBeGreaterThan(0);
      await screenshot(page, 'share-replicated');
      expect(await documentStillMarked(page)).toBe(true);
    },
    3 * SLOW,
  );

  it('a reader sees the shares and a share but no control that writes', async () => {
    await signIn(page, hawser.url, READER);
    await page.getByRole('row').filter({ hasText: 'anchor' }).waitFor();
    expect(await page.getByRole('link', { name: 'Create share' }).count()).toBe(0);
    await page.getByRole('link', { name: 'anchor' }).click();
    await page.getByTestId('share-status').getByText('available').waitFor();
    await page.getByRole('region', { name: 'History' }).waitFor();
    const buttons = await page.getByRole('button').allInnerTexts();
    // Copying an export path and signing out change nothing on the server.
    expect(buttons.filter((b) => !['Sign out', 'Copy'].includes(b))).toEqual([]);
    expect(await page.locator('form').count()).toBe(0);
    await screenshot(page, 'share-as-reader');
  });

  it(
    'an admin watches the pools chart change when a share is created, without reloading',
    async () => {
      await signIn(page, hawser.url, ADMIN);
      await page.getByRole('link', { name: 'Pools' }).click();
      const allocated = () => page.getByTestId('allocated').allInnerTexts();
      const chart = () =>
        page.evaluate('document.querySelector(".chart-box canvas").toDataURL()') as Promise<string>;
      await page.getByRole('row').filter({ hasText: 'charlie' }).waitFor();
      await eventually(
        async () => ((await chart()).length > 1000 ? true : undefined),
        10_000,
        'the chart',
      );
      await markDocument(page);
      const before = { allocated: await allocated(), chart: await chart() };
      await screenshot(page, 'pools');

      const created = await hawser.request(
        'POST',
        '/v2/shares',
        {
          share: {
            share_proto: 'NFS',
            size: 7,
            share_type: 'readable',
            availability_zone: 'az-2',
            name: 'big',
          },
        },
        { token: ADMIN },
      );
      expect(created.status).toBe(200);
      const after = await eventually(
        async () => {
          const now = await allocated();
          return now.join() !== before.allocated.join() ? now : undefined;
        },
        30_000,
        'the allocated capacity to change',
        200,
      );
      const total = (cells: string[]) => cells.reduce((sum, cell) => sum + Number(cell), 0);
      expect(total(after) - total(before.allocated)).toBe(7);
      await eventually(
        async () => ((await chart()) !== before.chart ? true : undefined),
        10_000,
        'the chart to be drawn again',
      );
      expect(await documentStillMarked(page)).toBe(true);
    },
    SLOW,
  );

  it('an admin filters the global event log by type', async () => {
    await signIn(page, hawser.url, ADMIN);
    await page.getByRole('link', { name: 'Event log' }).click();
    await page.getByLabel('Event types (comma-separated)').fill('ShareRequested');
    await page.getByRole('button', { name: 'Filter' }).click();
    // The unfiltered page may still be showing (it holds ShareRequested rows too) until the
    // filtered answer replaces it.
    await eventually(
      async () => {
        const types = await page.locator('tbody tr td:nth-child(2)').allInnerTexts();
        return types.length > 0 && types.every((type) => type === 'ShareRequested')
          ? true
          : undefined;
      },
      10_000,
      'only ShareRequested events to be listed',
    );
    await screenshot(page, 'event-log');
  });

  it("works from the keyboard alone, and a phone's width shows the share page without sideways scrolling", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${hawser.url}/ui/`);
    await page.getByLabel(/Token/).waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.type(READER);
    await page.keyboard.press('Enter');
    await page.getByRole('row').filter({ hasText: 'anchor' }).waitFor();
    // Tab until the anchor share's link has the focus, then follow it with Enter.
    for (let presses = 0; presses < 40; presses += 1) {
      const focused = (await page.evaluate('document.activeElement?.textContent ?? ""')) as string;
      if (focused === 'anchor') break;
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Enter');
    await page.getByTestId('share-status').getByText('available').waitFor();
    const overflow = (await page.evaluate(
      'document.documentElement.scrollWidth - document.documentElement.clientWidth',
    )) as number;
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'share-phone');
  });

  it("an admin reads the services and sets a project's quota from the page", async () => {
    await signIn(page, hawser.url, ADMIN);
    await page.getByRole('link', { name: 'Services' }).click();
    await page.getByRole('row').filter({ hasText: 'charlie' }).first().waitFor();
    expect(await page.getByRole('row').filter({ hasText: 'up' }).count()).toBeGreaterThan(0);

    await page.getByRole('link', { name: 'Quotas' }).click();
    await page.getByLabel('Project ID').fill(PROJECT);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('heading', { name: `Quotas of ${PROJECT}` }).waitFor();
    await page.getByLabel('Limit of shares').fill('77');
    await page.getByRole('button', { name: 'Save limits' }).click();
    await eventually(
      async () => {
        const { body } = await hawser.request('GET', `/v2/quota-sets/${PROJECT}`);
        return body.quota_set.shares === 77 ? true : undefined;
      },
      10_000,
      'the limit to be set',
    );
  });

  const asMember = (method: string, route: string, body?: unknown) =>
    hawser.request(method, route, body, { token: MEMBER });
  const streamEvents = async (shareId: string) =>
    (await hawser.request('GET', `/hawser/v1/streams/share-${shareId}?limit=1000`)).body.events as {
      id: string;
      type: string;
      user_id: string | null;
      causation_id: string | null;
    }[];

  it(
    'a member sets, changes and removes metadata, denies an access rule, deletes a snapshot and then the share from its page',
    async () => {
      const id = await memberShare('edits');
      const allowed = await asMember('POST', `/v2/shares/${id}/action`, {
        allow_access: { access_type: 'ip', access_to: '10.9.0.0/24', access_level: 'ro' },
      });
      expect(allowed.status).toBe(200);
      const snapshot = await asMember('POST', '/v2/snapshots', {
        snapshot: { share_id: id, name: 'old' },
      });
      expect(snapshot.status).toBe(202);
      const snapshotId = snapshot.body.snapshot.id as string;
      await signIn(page, hawser.url, MEMBER);
      await page.goto(`${hawser.url}/ui/#/shares/${id}`);
      await page.getByTestId('share-status').getByText('available').waitFor();
      const metadata = section('Metadata');
      const metadataOnServer = async () =>
        (await asMember('GET', `/v2/shares/${id}/metadata`)).body.metadata as Record<
          string,
          string
        >;

      // Set, then change the value of the same key, then remove it.
      await metadata.getByLabel('Key').fill('team');
      await metadata.getByLabel('Value').fill('blue');
      await metadata.getByRole('button', { name: 'Set' }).click();
      await metadata.getByText('blue').waitFor();
      expect(await metadataOnServer()).toMatchObject({ team: 'blue' });
      await metadata.getByLabel('Key').fill('team');
      await metadata.getByLabel('Value').fill('green');
      await metadata.getByRole('button', { name: 'Set' }).click();
      await metadata.getByText('green').waitFor();
      expect(await metadata.getByText('blue').count()).toBe(0);
      expect(await metadataOnServer()).toMatchObject({ team: 'green' });
      await metadata.getByRole('button', { name: 'Remove metadata team' }).click();
      await metadata.getByText('None.').waitFor();
      expect(await metadataOnServer()).not.toHaveProperty('team');

      // Deny the rule once it is active.
      const rules = section('Access rules');
      const rule = rules.getByRole('row').filter({ hasText: '10.9.0.0/24' });
      await rule.filter({ hasText: 'active' }).waitFor({ timeout: 20_000 });
      await rules.getByRole('button', { name: 'Deny access to 10.9.0.0/24' }).click();
      await rule.waitFor({ state: 'detached', timeout: 20_000 });
      const listed = await asMember('GET', `/v2/share-access-rules?share_id=${id}`);
      expect(listed.body.access_list).toEqual([]);

      // Delete the snapshot once it is available.
      const snapshots = section('Snapshots');
      await snapshots
        .getByRole('row')
        .filter({ hasText: 'old' })
        .filter({ hasText: 'available' })
        .waitFor({ timeout: 20_000 });
      await snapshots.getByRole('button', { name: 'Delete snapshot old' }).click();
      await snapshots.getByRole('row').filter({ hasText: 'old' }).waitFor({
        state: 'detached',
        timeout: 20_000,
      });
      await eventually(
        async () =>
          (await asMember('GET', `/v2/snapshots/${snapshotId}`)).status === 404 ? true : undefined,
        20_000,
        'the snapshot to be gone',
      );

      // Delete the share: the page goes back to the list, where it is gone too.
      await page.getByRole('button', { name: 'Delete share' }).click();
      await page.getByRole('heading', { name: 'Shares' }).waitFor();
      await eventually(
        async () => ((await asMember('GET', `/v2/shares/${id}`)).status === 404 ? true : undefined),
        20_000,
        'the share to be deleted',
        100,
      );
      await page.getByRole('row').filter({ hasText: 'edits' }).waitFor({ state: 'detached' });
    },
    2 * SLOW,
  );

  it(
    "an admin resyncs a member's replica from the page (Manila's rule: admins only), and the request is recorded as theirs",
    async () => {
      const id = await memberShare('mirrored');
      const replicaId = await addInSyncReplica(asMember, id);
      await signIn(page, hawser.url, MEMBER);
      await page.goto(`${hawser.url}/ui/#/shares/${id}`);
      await section('Replicas').getByRole('row').filter({ hasText: 'az-2' }).waitFor();
      expect(await page.getByRole('button', { name: 'Resync replica in az-2' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Sign out' }).click();

      await signIn(page, hawser.url, ADMIN);
      await page.goto(`${hawser.url}/ui/#/shares/${id}`);
      const replicas = section('Replicas');
      await replicas
        .getByRole('row')
        .filter({ hasText: 'az-2' })
        .filter({ hasText: 'in_sync' })
        .waitFor();
      await replicas.getByRole('button', { name: 'Resync replica in az-2' }).click();
      await section('History')
        .getByText('ReplicaResyncRequested', { exact: true })
        .waitFor({ timeout: 20_000 });

      const requested = (await streamEvents(id)).filter((e) => e.type === 'ReplicaResyncRequested');
      expect(requested.map((e) => e.user_id)).toEqual(['root']);
      await eventually(
        async () =>
          (await asMember('GET', `/v2/share-replicas/${replicaId}`)).body.share_replica
            .replica_state === 'in_sync'
            ? true
            : undefined,
        20_000,
        'the replica to be in_sync after the resync',
      );
    },
    2 * SLOW,
  );

  it('an admin reads the message of a share that could not be placed and deletes it', async () => {
    const anchor = (await hawser.request('GET', '/v2/shares?name=anchor&all_tenants=1')).body
      .shares[0].id as string;
    const shareId = await requestShare(ADMIN, {
      name: 'nowhere',
      scheduler_hints: { same_host: anchor, different_host: anchor },
    });
    const messagesOf = async () =>
      (
        await hawser.request('GET', `/v2/messages?resource_id=${shareId}`, undefined, {
          token: ADMIN,
        })
      ).body.messages as { id: string; user_message: string }[];
    const [message] = await eventually(
      async () => {
        const listed = await messagesOf();
        return listed.length > 0 ? listed : undefined;
      },
      20_000,
      'the user message',
      100,
    );

    await signIn(page, hawser.url, ADMIN);
    await page.getByRole('link', { name: 'Messages' }).click();
    const item = page.getByRole('listitem').filter({ hasText: shareId });
    await item.getByText(message?.user_message as string).waitFor();
    await screenshot(page, 'messages');
    await item.getByRole('button', { name: `Delete message ${message?.id}` }).click();
    await item.waitFor({ state: 'detached' });
    expect(await messagesOf()).toEqual([]);
  });

  it("a member sorts the share list by a column's header and pages through it with the buttons", async () => {
    const names = Array.from({ length: 12 }, (_, i) => `page-${String(i).padStart(2, '0')}`);
    for (const name of names) await requestShare(MEMBER, { name });
    await signIn(page, hawser.url, MEMBER);
    await page.getByLabel('Name contains').fill('page-');
    // A click on the Name column's header sorts on it, ascending.
    const nameHeader = page.getByRole('columnheader', { name: 'Name' });
    await nameHeader.getByRole('button', { name: 'Name' }).click();
    expect(await nameHeader.getAttribute('aria-sort')).toBe('ascending');
    await page.getByLabel('Per page').selectOption('10');
    const shown = () => page.locator('tbody tr td:first-child').allInnerTexts();
    const onServer = async (offset: number, dir: string) =>
      (
        (
          await asMember(
            'GET',
            `/v2/shares?name~=page-&sort_key=name&sort_dir=${dir}&limit=10&offset=${offset}`,
          )
        ).body.shares as { name: string }[]
      ).map((s) => s.name);

    await page.getByText('Page 1 of 2 (12 shares)').waitFor();
    // The pager counts by the new page size at once; the rows follow with the page's answer.
    await eventually(
      async () => ((await shown()).join() === names.slice(0, 10).join() ? true : undefined),
      5_000,
      'the first page of ten',
    );
    expect(await onServer(0, 'asc')).toEqual(names.slice(0, 10));
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 2 of 2 (12 shares)').waitFor();
    await eventually(
      async () => ((await shown()).join() === names.slice(10).join() ? true : undefined),
      5_000,
      'the second page',
    );
    expect(await onServer(10, 'asc')).toEqual(names.slice(10));
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Previous' }).click();
    await page.getByText('Page 1 of 2 (12 shares)').waitFor();

    // A second click turns the order, from the first page.
    await nameHeader.getByRole('button', { name: 'Name' }).click();
    expect(await nameHeader.getAttribute('aria-sort')).toBe('descending');
    const descending = [...names].reverse();
    await eventually(
      async () => ((await shown()).join() === descending.slice(0, 10).join() ? true : undefined),
      5_000,
      'the shares in descending order',
    );
    expect(await onServer(0, 'desc')).toEqual(descending.slice(0, 10));
  });
});

// Skipped, saying why, without Chromium or without Keystone.
const describeWithKeystoneInBrowser = chromiumPath ? describeWithKeystone : describeInBrowser;

describeWithKeystoneInBrowser('web console signing in with Keystone, in Chromium', () => {
  let hawser: HawserTestServer;
  let browser: Browser;

  beforeAll(async () => {
    hawser = await startHawser({ env: hawserKeystoneEnv(keystoneUrl as string) });
    browser = await launchBrowser();
  }, SLOW);
  afterAll(async () => {
    await browser?.close();
    await hawser?.close();
  });

  it('a member signs in with user name and password, the token stays out of the URL, and signing out forgets it', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${hawser.url}/ui/`);
      await page.getByLabel('User name').fill(process.env['KEYSTONE_MEMBER_USERNAME'] as string);
      await page.getByLabel('Password').fill(process.env['KEYSTONE_MEMBER_PASSWORD'] as string);
      await page.getByLabel('Project').fill(process.env['KEYSTONE_MEMBER_PROJECT'] as string);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Shares' }).waitFor();
      expect(await page.getByRole('link', { name: 'Create share' }).count()).toBe(1);
      const token = (await page.evaluate(
        'sessionStorage.getItem("hawser.console.token")',
      )) as string;
      expect(token.length).toBeGreaterThan(20);
      expect(page.url()).not.toContain(token);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('User name').waitFor();
      expect(await page.evaluate('sessionStorage.getItem("hawser.console.token")')).toBeNull();
    } finally {
      await page.close();
    }
  });

  it('a wrong password is refused with the words Hawser gives', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${hawser.url}/ui/`);
      await page.getByLabel('User name').fill(process.env['KEYSTONE_MEMBER_USERNAME'] as string);
      await page.getByLabel('Password').fill('not-the-password');
      await page.getByLabel('Project').fill(process.env['KEYSTONE_MEMBER_PROJECT'] as string);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page
        .getByRole('alert')
        .getByText(/not right/)
        .waitFor();
    } finally {
      await page.close();
    }
  });
});
