import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from './hawser-config.js';
import { loadBackends } from './backends-file.js';
import { ConfigurationError } from './configuration-error.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** The back-end files the README and docker/compose.yaml point people at. */
const SHIPPED = ['examples/multi-process', 'docker/backends'].flatMap((dir) =>
  fs
    .readdirSync(path.join(ROOT, dir))
    .filter((file) => file.endsWith('.json'))
    .map((file) => path.join(dir, file)),
);

const load = (file: string) =>
  loadBackends(loadConfig({ HAWSER_BACKENDS: file, HAWSER_DATA_DIR: os.tmpdir() }));

describe('back-end files', () => {
  it.each(SHIPPED)('given the shipped file %s, then every back end in it loads', (file) => {
    const raw = JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8')) as unknown;
    const listed = Array.isArray(raw) ? raw : (raw as { backends: unknown[] }).backends;

    const backends = load(path.join(ROOT, file));

    expect(backends).toEqual(listed);
  });

  const refusal = (backends: unknown) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-backends-'));
    const file = path.join(dir, 'backends.json');
    fs.writeFileSync(file, JSON.stringify(backends));
    try {
      load(file);
      return undefined;
    } catch (error) {
      return error instanceof ConfigurationError
        ? error.message.replace(file, '<file>')
        : String(error);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };

  it('given an entry with an unknown driver, then the line names the file, the key and the drivers there are', () => {
    expect(refusal([{ name: 'h@b', driver: 'zfs', pools: [] }])).toBe(
      'back-end file <file> (HAWSER_BACKENDS): [0].driver: expected "driver": "local" or "simulated", given "zfs"',
    );
  });

  it('given a simulated latency past what a timer can wait, then it is refused naming the key', () => {
    const simulated = (options: object) => [
      {
        name: 'h@b',
        driver: 'simulated',
        availabilityZone: 'az1',
        pools: [{ name: 'p' }],
        options,
      },
    ];

    expect(refusal(simulated({ latencyMs: 86_400_000 }))).toBeUndefined();
    expect(refusal(simulated({ latencyMs: 2 ** 31 }))).toBe(
      'back-end file <file> (HAWSER_BACKENDS): [0].options.latencyMs: expected a number of ms from 0 to 86400000, given 2147483648',
    );
    expect(refusal(simulated({ operationLatencyMs: { createShare: -1 } }))).toBe(
      'back-end file <file> (HAWSER_BACKENDS): [0].options.operationLatencyMs.createShare: expected a number of ms from 0 to 86400000, given -1',
    );
  });
});
