import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { testEngine } from './support/engine.js';

/**
 * GET /metrics, Prometheus text format, no token: requests by method, route pattern and status,
 * a latency histogram per route, and db_statements_total, which grows by exactly what each request
 * reports in X-Db-Statements.
 */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const wanted = JSON.stringify(Object.entries(labels).sort());
  for (const line of text.split('\n')) {
    const m = /^(\w+)\{(.*)\} (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = [...m[2].matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]);
    if (JSON.stringify(have.sort()) === wanted) return Number(m[3]);
  }
  return 0;
}

describe('GET /metrics', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  beforeAll(async () => {
    t = await createTestApp();
    ws = await t.workspace();
  });
  afterAll(() => t.close());

  const metrics = async () => {
    const res = await t.request('GET', '/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    return res.text;
  };

  it('counts requests by route pattern and status, and observes their latency', async () => {
    const before = await metrics();
    await t.request('GET', '/v1/tags', { token: ws.developerToken });
    await t.request('GET', '/v1/tags', { token: ws.developerToken });
    await t.request('GET', '/v1/tags');
    await t.request('GET', '/v1/net-comments/12345', { token: ws.developerToken });
    await t.request('GET', '/v1/no-such-thing-123', { token: ws.developerToken });
    const after = await metrics();

    const delta = (labels: Record<string, string>) => sample(after, 'http_requests_total', labels) - sample(before, 'http_requests_total', labels);
    expect(delta({ method: 'GET', route: '/v1/tags', status: '200' })).toBe(2);
    expect(delta({ method: 'GET', route: '/v1/tags', status: '401' })).toBe(1);
    // Paths are labelled by their pattern, unknown ones as "unmatched": the label set stays small.
    expect(delta({ method: 'GET', route: '/v1/net-comments/{id}', status: '404' })).toBe(1);
    expect(delta({ method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    // Only label values can leak a raw path: sample values (CPU seconds, byte counts) are free to
    // hold any digits, so scan the labels alone.
    const labelValues = [...after.matchAll(/\w+="((?:[^"\\]|\\.)*)"/g)].map((l) => l[1]);
    expect(labelValues).toContain('/v1/net-comments/{id}');
    expect(labelValues.filter((v) => v.includes('12345') || v.includes('no-such-thing'))).toEqual([]);

    const count = (text: string) => sample(text, 'http_request_duration_seconds_count', { method: 'GET', route: '/v1/tags' });
    expect(count(after) - count(before)).toBe(3);
    expect(sample(after, 'http_request_duration_seconds_bucket', { le: '+Inf', method: 'GET', route: '/v1/tags' })).toBe(count(after));
    expect(after).toMatch(/# TYPE http_request_duration_seconds histogram/);
    expect(after).toMatch(/^process_cpu_user_seconds_total \d/m);
  });

  it('adds every SQL statement a request runs to db_statements_total', async () => {
    const before = sample(await metrics(), 'db_statements_total', { engine: testEngine });
    const res = await t.request('POST', '/v1/contacts', { token: ws.developerToken, body: { email: 'metrics@example.com' } });
    expect(res.status).toBe(200);
    const reported = Number(res.headers.get('x-db-statements'));
    expect(reported).toBeGreaterThan(0);
    const after = sample(await metrics(), 'db_statements_total', { engine: testEngine });
    expect(after - before).toBe(reported);
  });
});
