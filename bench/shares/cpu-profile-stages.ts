import fs from 'node:fs';

/**
 * Where a `node --cpu-prof` profile's time went, by stage of the create path: every sample goes
 * to the innermost frame of Hawser's own code (else of a known package or node internal) whose
 * path names a stage. `node cpu-profile-stages.js FILE [--top N]` counts from the first HTTP
 * request on and up to the shutdown (neither start nor stop is the create path), then lists the N functions and N files with the
 * most self time (the frame a sample was taken in; 15 by default).
 */
const STAGES: readonly (readonly [stage: string, pattern: RegExp])[] = [
  ['authentication + policy', /apps\/api\/src\/(http\/auth|http\/.*token|policy)|libs\/policy\//],
  [
    'validation (body, microversion)',
    /apps\/api\/src\/http\/(validate|microversion)|libs\/api-contracts\//,
  ],
  ['HTTP pipeline + controllers + views', /apps\/api\/src\//],
  ['quota (reserve, commit)', /libs\/(domain|application)\/src\/quota|quota/],
  ['event store (append, read)', /libs\/eventstore\/|instrumented-event-store/],
  ['read-your-writes + log followers', /libs\/read-models\/src\/subscription\//],
  ['projections + read-model store', /libs\/(read-models|projections)\//],
  ['workflows (process managers)', /libs\/process-managers\//],
  ['scheduling', /(apps|libs)\/scheduler\//],
  ['share node + driver', /(apps|libs)\/share-node\/|libs\/drivers\//],
  ['use cases (load, decide) + domain', /libs\/(application|domain)\//],
  ['logging, metrics, tracing', /libs\/observability\/|platform\/src\/observability/],
  ['platform (wiring)', /libs\/platform\//],
  ['CQRS bus (NestJS)', /@nestjs\/cqrs/],
  [
    'HTTP (express, node http)',
    /node_modules\/(express|router|body-parser|raw-body|finalhandler|send|on-finished)|node:_http|node:net|node:internal\/(streams|http)/,
  ],
  ['the bench client (in-process only)', /bench\/shares\//],
];
const GC = '(garbage collector)';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: {
    readonly url: string;
    readonly functionName: string;
    readonly lineNumber: number;
  };
  readonly children?: readonly number[];
}
interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const stageOf = (stack: readonly ProfileNode[]): string => {
  const leaf = stack[0]?.callFrame.functionName ?? '';
  if (leaf === GC || leaf === '(program)' || leaf === '(idle)') return leaf;
  for (const [stage, pattern] of STAGES) {
    if (
      stack.some(
        (node) => node.callFrame.url.includes('/dist/') && pattern.test(node.callFrame.url),
      )
    ) {
      const innermost = stack.find((node) => node.callFrame.url.includes('/dist/'));
      if (innermost !== undefined && pattern.test(innermost.callFrame.url)) return stage;
    }
  }
  const innermost = stack.find((node) => node.callFrame.url.includes('/dist/'));
  if (innermost === undefined) {
    const matched = STAGES.find(([, pattern]) =>
      stack.some((node) => pattern.test(node.callFrame.url)),
    );
    return matched?.[0] ?? 'other (node internals, microtasks)';
  }
  return (
    STAGES.find(([, pattern]) => pattern.test(innermost.callFrame.url))?.[0] ?? 'other Hawser code'
  );
};

const FIRST_REQUEST = /apps\/api\/src\/http\//;
/** Nest's shutdown hooks: closing the stores (a WAL checkpoint) is not the create path either. */
const SHUTDOWN =
  /@nestjs\/core\/hooks\/(on-module-destroy|before-app-shutdown|on-app-shutdown)\.hook/;

const add = (totals: Map<string, number>, key: string, us: number) =>
  totals.set(key, (totals.get(key) ?? 0) + us);

/** A frame's file, from the package or build directory on, or what V8 calls a native frame. */
const fileOf = (frame: ProfileNode['callFrame']): string =>
  frame.url === '' ? frame.functionName : frame.url.replace(/^.*?\/(dist|node_modules)\//, '$1/');

const functionOf = ({ callFrame: frame }: ProfileNode): string => {
  const name = frame.functionName === '' ? '(anonymous)' : frame.functionName;
  return frame.url === '' ? name : `${name} ${fileOf(frame)}:${frame.lineNumber + 1}`;
};

export interface ProfileSummary {
  readonly stages: Map<string, number>;
  /** Self time by function (name, file and line) and by file, idle excluded. */
  readonly selfByFunction: Map<string, number>;
  readonly selfByFile: Map<string, number>;
}

export const summaryOf = (profile: Profile): ProfileSummary => {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parentOf.set(child, node.id);
  const stages = new Map<string, number>();
  const selfByFunction = new Map<string, number>();
  const selfByFile = new Map<string, number>();
  let serving = false;
  let stopping = false;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    const stack: ProfileNode[] = [];
    for (let cur: number | undefined = id; cur !== undefined; cur = parentOf.get(cur)) {
      stack.push(byId.get(cur) as ProfileNode);
    }
    serving ||= stack.some((node) => FIRST_REQUEST.test(node.callFrame.url));
    stopping ||= stack.some((node) => SHUTDOWN.test(node.callFrame.url));
    if (!serving || stopping) return;
    const stage = stageOf(stack);
    add(stages, stage, delta);
    const leaf = stack[0];
    if (leaf === undefined || stage === '(idle)') return;
    add(selfByFunction, functionOf(leaf), delta);
    add(selfByFile, fileOf(leaf.callFrame), delta);
  });
  return { stages, selfByFunction, selfByFile };
};

const table = (heading: string, totals: Map<string, number>, busy: number, top: number) => {
  console.log(`\n| ${heading} | CPU ms | share of busy CPU |\n|---|---:|---:|`);
  for (const [key, us] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`| ${key} | ${Math.round(us / 1000)} | ${((100 * us) / busy).toFixed(1)}% |`);
  }
};

const file = process.argv[2];
if (file !== undefined && import.meta.url.endsWith('cpu-profile-stages.js')) {
  const topIndex = process.argv.indexOf('--top');
  const top = topIndex >= 0 ? Number(process.argv[topIndex + 1]) : 15;
  const { stages, selfByFunction, selfByFile } = summaryOf(
    JSON.parse(fs.readFileSync(file, 'utf8')) as Profile,
  );
  const idle = stages.get('(idle)') ?? 0;
  stages.delete('(idle)');
  const busy = [...stages.values()].reduce((sum, us) => sum + us, 0);
  table('stage', stages, busy, stages.size);
  console.log(`| (idle, not counted) | ${Math.round(idle / 1000)} | |`);
  table('function (self time)', selfByFunction, busy, top);
  table('file (self time)', selfByFile, busy, top);
}
