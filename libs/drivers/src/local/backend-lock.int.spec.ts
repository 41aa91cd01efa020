import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DriverError } from '../contract/driver-error.js';
import { LocalLayout } from './local-layout.js';
import { LocalShareDriver } from './local.driver.js';
import { currentProcess } from './process-identity.js';
import { LockHolderProcess } from './test-support/lock-holder-process.js';

const BACKEND = 'node-a@alpha';
const RACES = 5;
const RACERS = 4;

describe('local back end lock (separate processes; run npm run build first)', () => {
  let root: string;
  let lockDir: string;
  const children: LockHolderProcess[] = [];
  const drivers: LocalShareDriver[] = [];

  const child = (options: { waitForGo?: boolean } = {}): LockHolderProcess => {
    const started = LockHolderProcess.start(root, BACKEND, options);
    children.push(started);
    return started;
  };

  const driver = (): LocalShareDriver => {
    const created = new LocalShareDriver({
      driver: 'local',
      name: BACKEND,
      availabilityZone: 'az-1',
      pools: [{ name: 'p1' }],
      options: { root },
    });
    drivers.push(created);
    return created;
  };

  const initializeError = async (target: LocalShareDriver): Promise<DriverError> => {
    const error = await target.initialize().then(
      () => null,
      (caught: unknown) => caught as DriverError,
    );
    if (!error) throw new Error('initialize() succeeded on a locked back end');
    return error;
  };

  /** A lock file as another process would have left it. */
  const writeHolder = (holder: Record<string, unknown> | string): void => {
    fs.mkdirSync(lockDir, { recursive: true });
    fs.writeFileSync(
      path.join(lockDir, 'held-1.json'),
      typeof holder === 'string' ? holder : JSON.stringify(holder),
    );
  };

  /** The pid of a process that has exited (and been reaped). */
  const deadPid = (): number => {
    const exited = spawnSync(process.execPath, ['-e', 'console.log(process.pid)']);
    return Number(exited.stdout.toString().trim());
  };

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-lock-'));
    lockDir = new LocalLayout(root).lockDir(BACKEND);
  });

  afterEach(async () => {
    await Promise.all(children.splice(0).map((started) => started.kill()));
    for (const started of drivers.splice(0)) await started.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('given a process driving a back end, when another process initializes it, then that fails naming the back end and the holder, and after the holder is SIGKILLed a new process takes it over', async () => {
    const holder = child();
    expect(await holder.outcome).toEqual({ held: true, pid: holder.pid });

    const refused = await child().outcome;

    expect(refused.held).toBe(false);
    expect(refused.code).toBe('backend_error');
    expect(refused.message).toContain(
      `Back end ${BACKEND} is already driven by process ${holder.pid} on host ${os.hostname()}`,
    );
    expect(refused.message).toContain('two share nodes must not serve the same back end');

    await holder.kill();
    const restarted = child();
    expect(await restarted.outcome).toEqual({ held: true, pid: restarted.pid });
    // Neither the crash nor the take-over left more than the one lock file.
    expect(fs.readdirSync(lockDir)).toEqual(['held-2.json']);
  });

  it('given a process that closed its driver, when another initializes, then it takes the back end', async () => {
    const first = child();
    await first.outcome;
    await first.stop();

    const second = child();

    expect(await second.outcome).toEqual({ held: true, pid: second.pid });
  });

  it('given a driver instance holding a back end, when a second instance in the same process initializes it, then it fails until the first closes', async () => {
    const first = driver();
    await first.initialize();
    await first.initialize();

    const error = await initializeError(driver());

    expect(error.code).toBe('backend_error');
    expect(error.userMessage).toContain(
      `Back end ${BACKEND} is already driven by this process (pid ${process.pid} on host ${os.hostname()})`,
    );
    await first.close();
    await first.close();
    await expect(driver().initialize()).resolves.toBeUndefined();
  });

  it('given the back end directory removed while its driver runs, then close() still succeeds', async () => {
    const running = driver();
    await running.initialize();
    fs.rmSync(root, { recursive: true, force: true });

    await expect(running.close()).resolves.toBeUndefined();
  });

  describe('stale locks', () => {
    it('given a lock whose holder pid is dead, then initialize takes it over', async () => {
      const self = await currentProcess();
      writeHolder({ ...self, pid: deadPid(), acquiredAt: '2026-01-01T00:00:00Z', released: false });

      await driver().initialize();

      expect(fs.readdirSync(lockDir)).toEqual(['held-2.json']);
      expect(JSON.parse(fs.readFileSync(path.join(lockDir, 'held-2.json'), 'utf8'))).toMatchObject({
        pid: process.pid,
        released: false,
      });
    });

    it('given a lock naming a live pid that started at another time (a reused pid), then initialize takes it over', async () => {
      const self = await currentProcess();
      expect(self.startTicks).not.toBeNull();
      writeHolder({
        ...self,
        startTicks: String(Number(self.startTicks) - 1),
        acquiredAt: '2026-01-01T00:00:00Z',
        released: false,
      });

      await expect(driver().initialize()).resolves.toBeUndefined();
    });

    it('given a lock taken before the machine restarted (another boot id), then initialize takes it over', async () => {
      const self = await currentProcess();
      expect(self.bootId).not.toBeNull();
      writeHolder({
        ...self,
        bootId: '00000000-0000-0000-0000-000000000000',
        acquiredAt: '2026-01-01T00:00:00Z',
        released: false,
      });

      await expect(driver().initialize()).resolves.toBeUndefined();
    });

    it('given a lock file emptied by a power cut, then initialize takes it over', async () => {
      writeHolder('');

      await expect(driver().initialize()).resolves.toBeUndefined();
    });

    it('given a lock held from another host, then initialize refuses and says how to clear it', async () => {
      const self = await currentProcess();
      writeHolder({
        ...self,
        hostname: 'elsewhere',
        acquiredAt: '2026-01-01T00:00:00Z',
        released: false,
      });

      const error = await initializeError(driver());

      expect(error.message).toContain(
        `Back end ${BACKEND} is already driven by process ${self.pid} on host elsewhere`,
      );
      expect(error.message).toContain(`if host elsewhere is gone for good, delete ${lockDir}`);
    });
  });

  it.each([
    ['a free back end', false],
    ['a back end whose holder was SIGKILLed', true],
  ])(
    `given ${RACERS} processes initializing %s at the same moment, then exactly one wins, ${RACES} times over`,
    async (_, afterCrash) => {
      for (let race = 0; race < RACES; race++) {
        if (afterCrash) {
          const crashed = child();
          await crashed.outcome;
          await crashed.kill();
        }
        const racers = Array.from({ length: RACERS }, () => child({ waitForGo: true }));
        // Each racer loads the driver, then waits; "go" goes to all at once.
        await new Promise((resolve) => setTimeout(resolve, 400));
        for (const racer of racers) racer.go();
        const outcomes = await Promise.all(racers.map((racer) => racer.outcome));

        const winners = outcomes.filter((outcome) => outcome.held);
        expect(winners).toHaveLength(1);
        const winner = winners[0]?.pid;
        for (const loser of outcomes.filter((outcome) => !outcome.held)) {
          expect(loser.message).toContain(`already driven by process ${winner} on host`);
        }
        await Promise.all(racers.map((racer) => racer.stop()));
      }
    },
  );
});
