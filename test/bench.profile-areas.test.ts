import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { areaReport, topFunctions } from '../bench/top-functions.js';

/**
 * `npm run bench:profile` reads a V8 profile's samples within the measured load's window and sums
 * each one's time into the area of the function it landed in (bench/top-functions.ts): a profile
 * written here, with samples before, inside and after the window, shows both.
 */
describe('bench:profile areas', () => {
  const dir = mkdtempSync(join(tmpdir(), 'profile-areas-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0 });
  const file = join(dir, 'page.cpuprofile');
  writeFileSync(
    file,
    JSON.stringify({
      nodes: [
        { id: 1, callFrame: frame('(root)', ''), children: [2, 3, 4, 5] },
        { id: 2, callFrame: frame('all', 'file:///app/dist/src/db/sqlite-statement-cache.js') },
        { id: 3, callFrame: frame('jsonStringifyResultWithoutInternals', 'file:///app/node_modules/graphql-yoga/esm/plugins/result-processor/stringify.js') },
        { id: 4, callFrame: frame('load', 'file:///app/node_modules/dataloader/index.js') },
        { id: 5, callFrame: frame('(garbage collector)', '') },
      ],
      // A sample every millisecond, at 1,998,000 to 2,005,000 us: two before the window, five in it, one after.
      startTime: 1_997_000,
      samples: [2, 2, 2, 3, 4, 5, 2, 2],
      timeDeltas: Array(8).fill(1000),
    }),
  );
  const window = { fromUs: 2_000_000, toUs: 2_004_000 };

  it('sums the window samples by area, per request', () => {
    expect(areaReport(file, 2, window)).toEqual([
      { area: 'garbage collection', usPerRequest: 500 },
      { area: 'statements and rows', usPerRequest: 1000 },
      { area: 'result JSON', usPerRequest: 500 },
      { area: 'GraphQL execution and loaders', usPerRequest: 500 },
    ]);
  });

  it('lists functions of the window only when given one', () => {
    expect(topFunctions(file, 5, window)).toContain('(of 5 ms sampled)');
    expect(topFunctions(file, 5)).toContain('(of 8 ms sampled)');
  });
});
