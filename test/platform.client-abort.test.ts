import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngine } from './support/engine.js';
import { unlimited } from './support/endpoints.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

/**
 * A client that goes away before its body has arrived (an aborted upload, a cancelled fetch) is
 * nothing gone wrong on our side: one `info` line with the request id, an access line with 499,
 * and no `error` line with a stack.
 */
describe(`a client that disconnects mid-request (${testEngine})`, () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let server: Server;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp(unlimited, { captureLogs: true });
    ws = await t.workspace({ name: 'Aborts' });
    server = createServer(t.app.listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  /** Sends the headers and part of a body of `declared` bytes, then closes the connection. */
  async function abandon(path: string, requestId: string) {
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      [
        `POST ${path} HTTP/1.1`,
        'Host: 127.0.0.1',
        `Authorization: Bearer ${ws.developerToken}`,
        'Content-Type: application/json',
        'Content-Length: 5000',
        `X-Request-Id: ${requestId}`,
        '',
        '{"name": "half a bo',
      ].join('\r\n'),
    );
    // Time for the request to reach the route (authenticated, reading its body) before the client leaves.
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    await waitFor(() => t.logs.some((l) => l.requestId === requestId && l.msg === 'request'), 5000);
  }

  async function waitFor(done: () => boolean, timeoutMs: number) {
    const until = Date.now() + timeoutMs;
    while (!done() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  it.each([
    ['a REST write', '/v1/tags', 'abort-rest-1'],
    ['a GraphQL request', '/graphql', 'abort-graphql-1'],
  ])('%s: an info line and a 499 access line, no error', async (_what, path, requestId) => {
    await abandon(path, requestId);
    const lines = t.logs.filter((l) => l.requestId === requestId);
    expect(lines.map((l) => [l.level, l.msg, l.status])).toEqual([
      [30, 'The client closed the connection before its request was read', undefined],
      [30, 'request', 499],
    ]);
    expect(t.logs.filter((l) => l.level >= 50)).toEqual([]);
  });
});
