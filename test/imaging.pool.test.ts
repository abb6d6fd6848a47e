import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRenderPool, RenderPoolBusyError, type RenderPool, type RenderPoolOptions } from '../src/imaging/render-pool.js';
import type { RenderResult, RenderSpec } from '../src/imaging/render-spec.js';
import { Decoded, solidPng } from './support/pictures.js';

const spec = (label: string): RenderSpec => ({
  width: 600,
  height: 400,
  base: solidPng(60, 40, [30, 60, 90, 255]),
  elements: [
    { kind: 'picture', style: 'circle', x: 20, y: 20, width: 200, height: 200, pictures: [solidPng(100, 100, [200, 40, 90, 255])] },
    { kind: 'text', x: 240, y: 40, width: 340, height: 300, text: `Xin chào ${label}`, fontFamily: 'roboto', fontSize: 48, color: '#ffffff', align: 'left', bold: true, italic: false },
  ],
});

const isPng = (result: RenderResult) => {
  const image = new Decoded(result.png);
  return image.width === 600 && image.height === 400;
};

let pool: RenderPool | null = null;
const open = (options: RenderPoolOptions) => (pool = createRenderPool(options));
afterEach(async () => {
  await pool?.close();
  pool = null;
});

describe('render pool', () => {
  it('20 renders at once on 2 threads and a queue of 4: 6 PNGs and 14 refusals at once, and the next render succeeds', async () => {
    const renders = open({ threads: 2, maxQueue: 4, recycleAfter: 1000 });
    const settled: string[] = [];
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        renders.render(spec(`#${i}`)).then(
          (result) => {
            settled.push('png');
            return result;
          },
          (err: unknown) => {
            settled.push('busy');
            throw err;
          },
        ),
      ),
    );
    const pngs = outcomes.filter((o): o is PromiseFulfilledResult<RenderResult> => o.status === 'fulfilled');
    const refusals = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected').map((o) => o.reason as unknown);
    expect(pngs.length).toBe(6);
    expect(pngs.every((o) => isPng(o.value))).toBe(true);
    expect(refusals.length).toBe(14);
    for (const err of refusals) {
      expect(err).toBeInstanceOf(RenderPoolBusyError);
      const { retryAfterSeconds } = err as RenderPoolBusyError;
      expect(Number.isInteger(retryAfterSeconds) && retryAfterSeconds >= 1 && retryAfterSeconds <= 10).toBe(true);
    }
    // Refused without waiting: every refusal came before the first PNG.
    expect(settled.slice(0, 14)).toEqual(Array(14).fill('busy'));

    expect(isPng(await renders.render(spec('after')))).toBe(true);
    expect(renders.stats()).toMatchObject({ threads: 2, queued: 0, running: 0, completed: 7, recycled: 0 });
  });

  it('replaces its threads every 5 renders without losing or failing one, the old threads ending', async () => {
    const renders = open({ threads: 2, maxQueue: 4, recycleAfter: 5 });
    const results: RenderResult[] = [];
    // Three at a time, so renders are running on the old threads when the next go to the new ones.
    for (let i = 0; i < 23; i += 3) {
      const batch = Array.from({ length: Math.min(3, 23 - i) }, (_, j) => renders.render(spec(`#${i + j}`)));
      results.push(...(await Promise.all(batch)));
    }
    expect(results.length).toBe(23);
    expect(results.every(isPng)).toBe(true);
    expect(renders.stats()).toMatchObject({ completed: 23, recycled: 4, queued: 0, running: 0 });
    // The replaced threads end once their last render is done: only the current two remain.
    await vi.waitFor(() => expect(renders.stats().threads).toBe(2), { timeout: 10_000, interval: 20 });
  });

  it('an aborted render rejects with an AbortError, queued or running, and the pool goes on', async () => {
    const renders = open({ threads: 1, maxQueue: 4, recycleAfter: 1000 });
    await renders.render(spec('warm-up'));

    await expect(renders.render(spec('pre-aborted'), AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' });

    // The idle thread takes the first at once; the second and third wait in the queue.
    const running = new AbortController();
    const queued = new AbortController();
    const first = renders.render(spec('running'), running.signal);
    const second = renders.render(spec('queued'), queued.signal);
    const third = renders.render(spec('third'));
    queued.abort();
    running.abort();
    await expect(second).rejects.toMatchObject({ name: 'AbortError' });
    await expect(first).rejects.toMatchObject({ name: 'AbortError' });
    expect(isPng(await third)).toBe(true);
    expect(isPng(await renders.render(spec('after')))).toBe(true);
  });

  it('close() lets accepted renders finish, then ends the threads and refuses more', async () => {
    const renders = open({ threads: 2, maxQueue: 4, recycleAfter: 1000 });
    const accepted = [renders.render(spec('a')), renders.render(spec('b')), renders.render(spec('c'))];
    await renders.close();
    expect((await Promise.all(accepted)).every(isPng)).toBe(true);
    expect(renders.stats()).toMatchObject({ threads: 0, queued: 0, running: 0, completed: 3 });
    await expect(renders.render(spec('late'))).rejects.toThrow('the render pool is closed');
  });

  it('refuses options out of range', () => {
    expect(() => createRenderPool({ threads: 0, maxQueue: 4, recycleAfter: 5 })).toThrow(RangeError);
    expect(() => createRenderPool({ threads: 2, maxQueue: -1, recycleAfter: 5 })).toThrow(RangeError);
    expect(() => createRenderPool({ threads: 2, maxQueue: 4, recycleAfter: 0 })).toThrow(RangeError);
  });
});
