import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

describe('app smoke', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  beforeAll(async () => {
    t = await createTestApp();
    ws = await t.workspace({ name: 'Acme' });
  });
  afterAll(() => t.close());

  it('serves the workspace to its API token', async () => {
    const res = await t.request('GET', '/v1/workspaces', { token: ws.developerToken });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Acme');
  });
});
