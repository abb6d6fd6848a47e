// `npx tsx bench/top-functions.ts <file.cpuprofile> [n]`: the functions a V8 CPU profile spent its
// time in, by self time and by inclusive time (a function counted once per sample however deep it
// recurses), so a performance change starts from a measurement. bench/profile.ts prints the same.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The report of a .cpuprofile file: its `n` top functions by self time, then by inclusive time. */
export function topFunctions(file: string, n = 30): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
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
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    const node = byId.get(id)!;
    self.set(label(node), (self.get(label(node)) ?? 0) + dt);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const l = label(byId.get(at)!);
      if (seen.has(l)) continue;
      seen.add(l);
      inclusive.set(l, (inclusive.get(l) ?? 0) + dt);
    }
  });

  const top = (map: Map<string, number>, title: string) => [
    `\n${title} (of ${(total / 1000).toFixed(0)} ms sampled)`,
    ...[...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, us]) => `${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}`),
  ];
  return [...top(self, 'self time'), ...top(inclusive, 'inclusive time')].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [file, n = '30'] = process.argv.slice(2);
  if (!file) throw new Error('usage: bench/top-functions.ts <file.cpuprofile> [n]');
  console.log(topFunctions(file, Number(n)));
}
