// `npx tsx bench/top-functions.ts <file.cpuprofile> [n]`: the functions a V8 CPU profile spent its
// time in, by self time and by inclusive time (a function counted once per sample however deep it
// recurses), so a performance change starts from a measurement. bench/profile.ts prints the same
// for the window its load ran in, with the time per request by area of the code.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * The samples to count: those taken between `fromUs` and `toUs`, in microseconds of the machine's
 * monotonic clock (V8 stamps profiles with it, as `process.hrtime` reads it): the load's steady
 * state, without start-up and shutdown.
 */
export interface ProfileWindow {
  fromUs: number;
  toUs: number;
}

/** Each sample of the profile, with the time it stands for (within the window, if given). */
function samplesOf(profile: Profile, window?: ProfileWindow) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const taken: { node: ProfileNode; us: number }[] = [];
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    at += us;
    if (window && (at < window.fromUs || at > window.toUs)) return;
    taken.push({ node: byId.get(id)!, us });
  });
  return { byId, taken };
}

const readProfile = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Profile;

/** The report of a .cpuprofile file: its `n` top functions by self time, then by inclusive time. */
export function topFunctions(file: string, n = 30, window?: ProfileWindow): string {
  const profile = readProfile(file);
  const { byId, taken } = samplesOf(profile, window);
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const label = (node: ProfileNode) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? `${url.replace(/^file:\/\/.*?\/(node_modules|src|dist)\//, '$1/')}:${lineNumber + 1}` : '';
    return `${functionName || '(anonymous)'} ${where}`.trim();
  };

  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  for (const { node, us } of taken) {
    total += us;
    self.set(label(node), (self.get(label(node)) ?? 0) + us);
    const seen = new Set<string>();
    for (let at: number | undefined = node.id; at !== undefined; at = parent.get(at)) {
      const l = label(byId.get(at)!);
      if (seen.has(l)) continue;
      seen.add(l);
      inclusive.set(l, (inclusive.get(l) ?? 0) + us);
    }
  }

  const top = (map: Map<string, number>, title: string) => [
    `\n${title} (of ${(total / 1000).toFixed(0)} ms sampled)`,
    ...[...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, us]) => `${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}`),
  ];
  return [...top(self, 'self time'), ...top(inclusive, 'inclusive time')].join('\n');
}

/**
 * The areas a request's CPU goes to, by where each sampled function lives (first match wins). Self
 * time, so a native call (SQLite's step, JSON.stringify) counts in the area of the function that
 * made it. The bare handler (bench/baseline-server.ts) is one area: its statements, rows and JSON.
 */
const areas: [area: string, test: (url: string, fn: string) => boolean][] = [
  ['garbage collection', (_u, fn) => fn === '(garbage collector)'],
  ['idle', (_u, fn) => fn === '(idle)'],
  ['bare handler: statements, rows and JSON', (u) => u.includes('bench/baseline-server')],
  ['statements and rows', (u) => /\/src\/db\/|\/kysely\/|better-sqlite3|\/pg\/|pg-protocol/.test(u)],
  ['records from rows (domain)', (u) => u.includes('/src/domain/')],
  ['result JSON', (u) => u.includes('result-processor/stringify')],
  [
    'GraphQL execution and loaders',
    (u, fn) => /graphql-jit|@pothos|\/dataloader\/|\/src\/graphql\/|node_modules\/graphql\//.test(u) || fn === 'runMicrotasks' || (u === '' && /Handler|__context|__value/.test(fn)),
  ],
  [
    'request pipeline: Yoga, auth, limits, log, metrics',
    (u) => /graphql-yoga|@whatwg-node|@envelop|@graphql-tools|@escape\.tech|\/src\/|rate-limiter-flexible|\/zod\/|prom-client|pino|sonic-boom|node:internal\/(url|abort_controller|event_target|crypto)/.test(u),
  ],
  ['HTTP, sockets and the rest of Node', () => true],
];

/** Microseconds of CPU per request by area, over the window, for `requests` requests. */
export function areaReport(file: string, requests: number, window?: ProfileWindow): { area: string; usPerRequest: number }[] {
  const { taken } = samplesOf(readProfile(file), window);
  const sums = new Map(areas.map(([area]) => [area, 0]));
  for (const { node, us } of taken) {
    const [area] = areas.find(([, test]) => test(node.callFrame.url, node.callFrame.functionName))!;
    sums.set(area, sums.get(area)! + us);
  }
  return [...sums].filter(([, us]) => us > 0).map(([area, us]) => ({ area, usPerRequest: Math.round(us / requests) }));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [file, n = '30'] = process.argv.slice(2);
  if (!file) throw new Error('usage: bench/top-functions.ts <file.cpuprofile> [n]');
  console.log(topFunctions(file, Number(n)));
}
