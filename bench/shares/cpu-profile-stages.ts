import fs from 'node:fs';

/**
 * Where a `node --cpu-prof` profile's time went, by stage of the create path: every sample goes
 * to the innermost frame of Hawser's own code (else of a known package or node internal) whose
 * path names a stage. `node cpu-profile-stages.js FILE` counts from the first HTTP request on
 * (start-up is not the create path).
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
  readonly callFrame: { readonly url: string; readonly functionName: string };
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

export const stagesOf = (profile: Profile): Map<string, number> => {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parentOf.set(child, node.id);
  const stages = new Map<string, number>();
  let serving = false;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    const stack: ProfileNode[] = [];
    for (let cur: number | undefined = id; cur !== undefined; cur = parentOf.get(cur)) {
      stack.push(byId.get(cur) as ProfileNode);
    }
    serving ||= stack.some((node) => FIRST_REQUEST.test(node.callFrame.url));
    if (!serving) return;
    const stage = stageOf(stack);
    stages.set(stage, (stages.get(stage) ?? 0) + delta);
  });
  return stages;
};

const file = process.argv[2];
if (file !== undefined && import.meta.url.endsWith('cpu-profile-stages.js')) {
  const stages = stagesOf(JSON.parse(fs.readFileSync(file, 'utf8')) as Profile);
  const busy = [...stages]
    .filter(([stage]) => stage !== '(idle)')
    .reduce((sum, [, us]) => sum + us, 0);
  console.log(`| stage | CPU ms | share of busy CPU |\n|---|---:|---:|`);
  for (const [stage, us] of [...stages].sort((a, b) => b[1] - a[1])) {
    if (stage === '(idle)') continue;
    console.log(`| ${stage} | ${Math.round(us / 1000)} | ${((100 * us) / busy).toFixed(1)}% |`);
  }
  console.log(`| (idle, not counted) | ${Math.round((stages.get('(idle)') ?? 0) / 1000)} | |`);
}
