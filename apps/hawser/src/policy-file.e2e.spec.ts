import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eventually } from './test-support/hawser-test-server.js';
import { HawserProcess, freePort, runUntilExit } from './test-support/hawser-process.js';
import { manilaRequest } from './test-support/manila-http.js';
import { simulatedBackends } from './test-support/simulated-backends.js';

const PROJECT = 'cccccccccccccccccccccccccccccccc';
const MEMBER = `mia:${PROJECT}:member`;
const MALFORMED = '"share:create": "role:member and ("\n';
/** Well formed, but nested far past the bound (parsing it once overflowed the stack). */
const TOO_DEEP = `"share:create": "${'('.repeat(20_000)}role:member${')'.repeat(20_000)}"\n`;

describe('the policy file (HAWSER_POLICY_FILE), at start and on SIGHUP', () => {
  let dir: string;
  let policyFile: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-policy-'));
    policyFile = path.join(dir, 'policy.yaml');
    fs.writeFileSync(path.join(dir, 'backends.json'), JSON.stringify(simulatedBackends()));
    env = {
      PORT: String(await freePort()),
      HAWSER_DATA_DIR: path.join(dir, 'data'),
      HAWSER_BACKENDS: path.join(dir, 'backends.json'),
      HAWSER_AUTH: 'noauth',
      HAWSER_POLICY_FILE: policyFile,
    };
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['malformed', MALFORMED],
    ['nested too deep', TOO_DEEP],
  ])(
    'refuses to start on a %s file with one line naming the file and the rule, and no stack trace',
    async (_case, text) => {
      fs.writeFileSync(policyFile, text);
      const { code, output } = await runUntilExit(env);
      expect(code).toBe(78);
      const refusal = output.split('\n').filter((line) => line.includes(policyFile));
      expect(refusal).toHaveLength(1);
      expect(refusal[0]).toContain('share:create');
      expect(output).not.toMatch(/^\s+at /m);
      expect(output).not.toContain('Hawser listening');
    },
  );

  it('applies a changed file on SIGHUP, and keeps the policy in force when the new file is malformed', async () => {
    fs.writeFileSync(policyFile, '"share:create": "rule:context_is_admin"\n');
    const hawser = new HawserProcess(env);
    await hawser.start();
    const base = `http://127.0.0.1:${env.PORT}`;
    const createAsMember = () =>
      manilaRequest(
        base,
        'POST',
        '/v2/shares',
        { share: { share_proto: 'NFS', size: 1 } },
        { token: MEMBER },
      );
    try {
      expect((await createAsMember()).status).toBe(403);

      fs.writeFileSync(policyFile, '"share:create": "role:member"\n');
      hawser.signal('SIGHUP');
      // Allowed now: past the policy, the request fails on its missing share type instead.
      const allowed = await eventually(
        async () => {
          const response = await createAsMember();
          return response.status === 403 ? undefined : response;
        },
        10_000,
        'the reloaded policy',
      );
      expect(allowed.status).toBe(400);
      expect(allowed.body.badRequest.message).toMatch(/share type/i);

      fs.writeFileSync(policyFile, MALFORMED);
      hawser.signal('SIGHUP');
      await eventually(
        async () => (hawser.output.includes('Policy not reloaded') ? true : undefined),
        10_000,
        'the refused reload to be logged',
      );
      const logged = hawser.output.split('\n').find((line) => line.includes('Policy not reloaded'));
      expect(logged).toContain(policyFile);
      expect(logged).toContain('share:create');
      expect((await createAsMember()).status).toBe(400);

      fs.writeFileSync(policyFile, TOO_DEEP);
      hawser.signal('SIGHUP');
      const refusals = () =>
        hawser.output.split('\n').filter((line) => line.includes('Policy not reloaded'));
      await eventually(
        async () => (refusals().length === 2 ? true : undefined),
        10_000,
        'the second refused reload to be logged',
      );
      expect(refusals()[1]).toContain('nests deeper than 64 levels');
      expect((await createAsMember()).status).toBe(400);
    } finally {
      await hawser.stop();
    }
  });
});
