import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AdapterInbox, ChannelAdapter } from '../src/domain/channels/channel-adapter.js';
import { ChannelError } from '../src/domain/channels/channel-error.js';
import { graphApiAdapter } from '../src/channels/graph-api.adapter.js';
import { createChannelAdapter } from '../src/channels/registry.js';
import { ConfigError, loadConfig } from '../src/config/config.js';

/** What the network saw of one request. */
interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: unknown;
}

/** An answer the network gives to the next request: status, body (JSON unless a string), headers; `hang` never answers. */
type Answer = { status: number; json?: unknown; text?: string; headers?: Record<string, string> } | 'hang';

/**
 * A local HTTP server on a free port that plays the Graph API: it records every request and answers
 * the next scripted answer (200 `{}` when none is left).
 */
class FakeNetwork {
  readonly seen: Seen[] = [];
  private answers: Answer[] = [];
  private readonly hanging: ServerResponse[] = [];
  private server!: Server;
  url = '';

  async start() {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v21.0`;
  }

  answer(...answers: Answer[]) {
    this.answers.push(...answers);
  }

  reset() {
    this.seen.length = 0;
    this.answers = [];
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    this.seen.push({
      method: req.method ?? '',
      url: req.url ?? '',
      authorization: req.headers.authorization,
      contentType: req.headers['content-type'],
      body: raw === '' ? undefined : JSON.parse(raw),
    });
    const next = this.answers.shift() ?? { status: 200, json: {} };
    if (next === 'hang') {
      this.hanging.push(res);
      return;
    }
    const text = next.text ?? JSON.stringify(next.json);
    res.writeHead(next.status, { 'content-type': next.text !== undefined ? 'text/html' : 'application/json', ...next.headers });
    res.end(text);
  }

  async stop() {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const TOKEN = 'EAAtest-token-0001';
const photo: AdapterInbox = { id: 1, channel: 'photo', sourceId: '17841400000000001' };
const net: AdapterInbox = { id: 2, channel: 'net', sourceId: '102030405060708' };
const on = (inbox: AdapterInbox) => ({ workspaceId: 1, inbox });
const json = { contentType: 'application/json', authorization: `Bearer ${TOKEN}` };
const noBody = { contentType: undefined, authorization: `Bearer ${TOKEN}`, body: undefined };

/** The error a promise rejects with, as a plain object of its own fields and its message. */
const failure = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ChannelError);
  return { ...(err as ChannelError), message: (err as ChannelError).message };
};

describe('Graph API adapter against a local server that plays the network', () => {
  const network = new FakeNetwork();
  let adapter: ChannelAdapter;

  beforeAll(async () => {
    await network.start();
    adapter = graphApiAdapter({ baseUrl: `${network.url}/`, accessToken: () => TOKEN, timeoutMs: 2000 });
  });
  beforeEach(() => network.reset());
  afterAll(() => network.stop());

  describe('requests like the real ones, every call answered with what the network created', () => {
    it('private reply: POST /{account}/messages to the comment', async () => {
      network.answer({ status: 200, json: { recipient_id: '6001002003', message_id: 'm_AAA1' } }, { status: 200, json: { recipient_id: '7001', message_id: 'm_BBB2' } });
      const content = { type: 'text' as const, text: 'Thanks for asking! Prices: https://shop.example.com' };
      expect(await adapter.sendPrivateReply({ ...on(photo), commentId: '17858893269000001', postId: '178920001', contactId: 7, content })).toEqual({ externalId: 'm_AAA1' });
      expect(await adapter.sendPrivateReply({ ...on(net), commentId: '102030405060708_9001_77', content })).toEqual({ externalId: 'm_BBB2' });
      expect(network.seen).toEqual([
        { method: 'POST', url: '/v21.0/17841400000000001/messages', ...json, body: { recipient: { comment_id: '17858893269000001' }, message: { text: content.text } } },
        { method: 'POST', url: '/v21.0/102030405060708/messages', ...json, body: { recipient: { comment_id: '102030405060708_9001_77' }, message: { text: content.text } } },
      ]);
    });

    it('public reply: POST /{comment}/replies (photo) or /{comment}/comments (net)', async () => {
      network.answer({ status: 200, json: { id: '17858893269000002' } }, { status: 200, json: { id: '9001_78' } });
      expect(await adapter.sendPublicReply({ ...on(photo), commentId: '17858893269000001', content: { type: 'text', text: 'Sent you a DM!' } })).toEqual({ externalId: '17858893269000002' });
      expect(await adapter.sendPublicReply({ ...on(net), commentId: '9001_77', content: { type: 'text', text: 'Sent you a message!' } })).toEqual({ externalId: '9001_78' });
      expect(network.seen).toEqual([
        { method: 'POST', url: '/v21.0/17858893269000001/replies', ...json, body: { message: 'Sent you a DM!' } },
        { method: 'POST', url: '/v21.0/9001_77/comments', ...json, body: { message: 'Sent you a message!' } },
      ]);
    });

    it('message: POST /{account}/messages to the person, as a response', async () => {
      network.answer({ status: 200, json: { recipient_id: '6001002003', message_id: 'm_CCC3' } });
      expect(await adapter.sendMessage({ ...on(net), recipientId: '6001002003', content: { type: 'text', text: 'Your order shipped' } })).toEqual({ externalId: 'm_CCC3' });
      expect(network.seen).toEqual([
        { method: 'POST', url: '/v21.0/102030405060708/messages', ...json, body: { recipient: { id: '6001002003' }, messaging_type: 'RESPONSE', message: { text: 'Your order shipped' } } },
      ]);
    });

    it('like, hide and unhide: POST /{comment}/likes, POST /{comment} with hide (photo) or is_hidden (net)', async () => {
      network.answer(...Array.from({ length: 5 }, () => ({ status: 200, json: { success: true } })));
      expect(await adapter.likeComment({ ...on(net), commentId: '9001_77' })).toEqual({ externalId: null });
      expect(await adapter.hideComment({ ...on(photo), commentId: '1785' })).toEqual({ externalId: null });
      expect(await adapter.unhideComment({ ...on(photo), commentId: '1785' })).toEqual({ externalId: null });
      expect(await adapter.hideComment({ ...on(net), commentId: '9001_77' })).toEqual({ externalId: null });
      expect(await adapter.unhideComment({ ...on(net), commentId: '9001_77' })).toEqual({ externalId: null });
      expect(network.seen).toEqual([
        { method: 'POST', url: '/v21.0/9001_77/likes', ...noBody },
        { method: 'POST', url: '/v21.0/1785', ...json, body: { hide: true } },
        { method: 'POST', url: '/v21.0/1785', ...json, body: { hide: false } },
        { method: 'POST', url: '/v21.0/9001_77', ...json, body: { is_hidden: true } },
        { method: 'POST', url: '/v21.0/9001_77', ...json, body: { is_hidden: false } },
      ]);
    });

    it('lead: GET /{lead} with its answers, times made ISO', async () => {
      network.answer({
        status: 200,
        json: {
          id: '9000001',
          created_time: '2026-11-20T08:00:00+0000',
          ad_id: '6100',
          form_id: '5550001',
          field_data: [{ name: 'email', values: ['lead@example.com'] }, { name: 'interests', values: ['shoes', 'bags'] }],
        },
      });
      expect(await adapter.fetchLead({ ...on(net), leadId: '9000001' })).toEqual({
        id: '9000001',
        createdAt: '2026-11-20T08:00:00.000Z',
        formId: '5550001',
        adId: '6100',
        fields: [{ name: 'email', values: ['lead@example.com'] }, { name: 'interests', values: ['shoes', 'bags'] }],
      });
      expect(network.seen).toEqual([{ method: 'GET', url: '/v21.0/9000001?fields=id,created_time,ad_id,form_id,field_data', ...noBody }]);
    });

    it("profile: GET /{user} with each network's fields", async () => {
      network.answer(
        { status: 200, json: { id: '6001', name: 'Ada Lovelace', username: 'ada', profile_pic: 'https://cdn.example.com/ada.jpg' } },
        { status: 200, json: { id: '7001', first_name: 'Bob', last_name: 'Stone', name: 'Bob Stone', profile_pic: 'https://cdn.example.com/bob.jpg' } },
      );
      expect(await adapter.fetchProfile({ ...on(photo), userId: '6001' })).toEqual({ id: '6001', firstName: null, lastName: null, name: 'Ada Lovelace', username: 'ada', avatarUrl: 'https://cdn.example.com/ada.jpg' });
      expect(await adapter.fetchProfile({ ...on(net), userId: '7001' })).toEqual({ id: '7001', firstName: 'Bob', lastName: 'Stone', name: 'Bob Stone', username: null, avatarUrl: 'https://cdn.example.com/bob.jpg' });
      expect(network.seen).toEqual([
        { method: 'GET', url: '/v21.0/6001?fields=name,username,profile_pic', ...noBody },
        { method: 'GET', url: '/v21.0/7001?fields=first_name,last_name,name,profile_pic', ...noBody },
      ]);
    });

    it("posts: GET /{account}/media (photo) or /{page}/posts (net), in channel posts' shape", async () => {
      network.answer(
        {
          status: 200,
          json: {
            data: [
              { id: '178920002', caption: 'Studio tour', media_type: 'VIDEO', media_product_type: 'REELS', permalink: 'https://photo.example.com/p/2/', thumbnail_url: 'https://cdn.example.com/2.jpg', timestamp: '2026-11-02T09:00:00+0000' },
              { id: '178920001', media_type: 'IMAGE', media_product_type: 'FEED', permalink: 'https://photo.example.com/p/1/', media_url: 'https://cdn.example.com/1.jpg', timestamp: '2026-11-01T09:00:00+0000' },
            ],
            paging: { cursors: { before: 'a', after: 'b' } },
          },
        },
        { status: 200, json: { data: [{ id: '102030405060708_9001', message: 'Open on Sunday', created_time: '2026-11-03T10:30:00+0000', permalink_url: 'https://net.example.com/1020/posts/9001' }] } },
      );
      expect(await adapter.fetchPosts({ ...on(photo), limit: 2 })).toEqual([
        { id: '178920002', caption: 'Studio tour', mediaType: 'VIDEO', kind: 'reels', permalink: 'https://photo.example.com/p/2/', thumbnailUrl: 'https://cdn.example.com/2.jpg', timestamp: '2026-11-02T09:00:00.000Z' },
        { id: '178920001', caption: null, mediaType: 'IMAGE', kind: 'published', permalink: 'https://photo.example.com/p/1/', thumbnailUrl: 'https://cdn.example.com/1.jpg', timestamp: '2026-11-01T09:00:00.000Z' },
      ]);
      expect(await adapter.fetchPosts(on(net))).toEqual([
        { id: '102030405060708_9001', caption: 'Open on Sunday', mediaType: 'status', kind: 'published', permalink: 'https://net.example.com/1020/posts/9001', thumbnailUrl: null, timestamp: '2026-11-03T10:30:00.000Z' },
      ]);
      expect(network.seen).toEqual([
        { method: 'GET', url: '/v21.0/17841400000000001/media?fields=id,caption,media_type,media_product_type,permalink,thumbnail_url,media_url,timestamp&limit=2', ...noBody },
        { method: 'GET', url: '/v21.0/102030405060708/posts?fields=id,message,created_time,permalink_url,full_picture&limit=25', ...noBody },
      ]);
    });

    it('ids are path segments: a slash or query in an id cannot reach another endpoint', async () => {
      network.answer({ status: 200, json: { success: true } });
      await adapter.likeComment({ ...on(net), commentId: '9001/../me?x=1' });
      expect(network.seen.map((s) => s.url)).toEqual(['/v21.0/9001%2F..%2Fme%3Fx%3D1/likes']);
    });

    it('a flow or AI agent hand-off is refused without a request: the Graph API sends messages only', async () => {
      expect(await failure(adapter.sendPrivateReply({ ...on(photo), commentId: '1785', content: { type: 'flow', flowId: 'flow-42' } }))).toEqual({
        name: 'ChannelError',
        reason: 'invalid',
        httpCode: null,
        providerMessage: 'The Graph API adapter sends messages only; a flow hand-off (flow-42) runs on the platform',
        retryable: false,
        message: 'invalid: The Graph API adapter sends messages only; a flow hand-off (flow-42) runs on the platform',
      });
      expect((await failure(adapter.sendMessage({ ...on(net), recipientId: '7001', content: { type: 'AIAgent', agentId: 'agent-7' } }))).reason).toBe('invalid');
      expect(network.seen).toEqual([]);
    });
  });

  describe('errors: each Graph API error body mapped to one ChannelError reason', () => {
    const graphError = (status: number, code: number, message: string, extra: { error_subcode?: number; headers?: Record<string, string> } = {}) => ({
      status,
      json: { error: { message, type: 'OAuthException', code, ...(extra.error_subcode !== undefined ? { error_subcode: extra.error_subcode } : {}), fbtrace_id: `trace-${code}` } },
      headers: extra.headers,
    });
    const expected = (reason: string, httpCode: number, providerMessage: string, retryable: boolean, code: number, more: Record<string, unknown> = {}) => ({
      name: 'ChannelError',
      reason,
      httpCode,
      providerMessage,
      retryable,
      providerCode: code,
      traceId: `trace-${code}`,
      message: `${reason}: ${providerMessage}`,
      ...more,
    });
    const reply = () => adapter.sendPrivateReply({ ...on(photo), commentId: '1785', content: { type: 'text', text: 'Hi' } });

    it('rate limits (4, 17, 32, 613, 80006) are rateLimited and retryable, with Retry-After or the usage header when given', async () => {
      const usage = JSON.stringify({ '102030405060708': [{ type: 'messenger', call_count: 100, total_cputime: 20, total_time: 30, estimated_time_to_regain_access: 5 }] });
      network.answer(
        graphError(429, 4, '(#4) Application request limit reached', { headers: { 'retry-after': '120' } }),
        graphError(400, 17, '(#17) User request limit reached', { headers: { 'x-business-use-case-usage': usage } }),
        graphError(400, 32, '(#32) Page request limit reached'),
        graphError(400, 613, '(#613) Calls to this api have exceeded the rate limit.'),
        graphError(400, 80006, 'There have been too many messenger api calls to this Page account.'),
      );
      expect(await failure(reply())).toEqual(expected('rateLimited', 429, '(#4) Application request limit reached', true, 4, { retryAfterSeconds: 120 }));
      expect(await failure(reply())).toEqual(expected('rateLimited', 400, '(#17) User request limit reached', true, 17, { retryAfterSeconds: 300 }));
      expect(await failure(reply())).toEqual(expected('rateLimited', 400, '(#32) Page request limit reached', true, 32));
      expect(await failure(reply())).toEqual(expected('rateLimited', 400, '(#613) Calls to this api have exceeded the rate limit.', true, 613));
      expect(await failure(reply())).toEqual(expected('rateLimited', 400, 'There have been too many messenger api calls to this Page account.', true, 80006));
    });

    it('an expired or invalid token (190) is tokenExpired, not retryable', async () => {
      network.answer(graphError(401, 190, 'Error validating access token: Session has expired on Friday, 20-Nov-26 10:00:00 PST.', { error_subcode: 463 }));
      expect(await failure(reply())).toEqual(
        expected('tokenExpired', 401, 'Error validating access token: Session has expired on Friday, 20-Nov-26 10:00:00 PST.', false, 190, { providerSubcode: 463 }),
      );
    });

    it('outside the messaging window (10 with 2018278, 10 with 2534022) is windowClosed', async () => {
      network.answer(
        graphError(400, 10, '(#10) This message is sent outside of allowed window.', { error_subcode: 2018278 }),
        graphError(400, 10, 'This message is sent outside of allowed window.', { error_subcode: 2534022 }),
      );
      expect(await failure(reply())).toEqual(expected('windowClosed', 400, '(#10) This message is sent outside of allowed window.', false, 10, { providerSubcode: 2018278 }));
      expect(await failure(reply())).toEqual(expected('windowClosed', 400, 'This message is sent outside of allowed window.', false, 10, { providerSubcode: 2534022 }));
    });

    it('a missing object (100 with 33) is notFound; another 100 or a permission error is invalid', async () => {
      const missing = "Unsupported post request. Object with ID '1785' does not exist, cannot be loaded due to missing permissions, or does not support this operation.";
      network.answer(
        graphError(400, 100, missing, { error_subcode: 33 }),
        graphError(400, 100, '(#100) Param message must be non-empty UTF-8 encoded string'),
        graphError(403, 200, '(#200) Requires pages_manage_engagement permission to manage the object'),
        graphError(400, 10, '(#10) Application does not have permission for this action'),
      );
      expect(await failure(reply())).toEqual(expected('notFound', 400, missing, false, 100, { providerSubcode: 33 }));
      expect(await failure(reply())).toEqual(expected('invalid', 400, '(#100) Param message must be non-empty UTF-8 encoded string', false, 100));
      expect(await failure(reply())).toEqual(expected('invalid', 403, '(#200) Requires pages_manage_engagement permission to manage the object', false, 200));
      expect(await failure(reply())).toEqual(expected('invalid', 400, '(#10) Application does not have permission for this action', false, 10));
    });

    it("the network's own failures (1, 2, any 5xx) are unavailable and retryable", async () => {
      network.answer(graphError(500, 2, 'An unexpected error has occurred. Please retry your request later.'), graphError(400, 1, 'An unknown error occurred'));
      expect(await failure(reply())).toEqual(expected('unavailable', 500, 'An unexpected error has occurred. Please retry your request later.', true, 2));
      expect(await failure(reply())).toEqual(expected('unavailable', 400, 'An unknown error occurred', true, 1));
    });

    it('a non-JSON 502 is unavailable and retryable; a non-JSON 404 is notFound', async () => {
      network.answer({ status: 502, text: '<html><body>Bad Gateway</body></html>', headers: { 'retry-after': 'Thu, 01 Jan 1970 00:00:00 GMT' } }, { status: 404, text: 'Not Found' });
      expect(await failure(reply())).toEqual({
        name: 'ChannelError',
        reason: 'unavailable',
        httpCode: 502,
        providerMessage: 'HTTP 502: not a JSON answer (<html><body>Bad Gateway</body></html>)',
        retryable: true,
        // A date in the past: retry at once.
        retryAfterSeconds: 0,
        message: 'unavailable: HTTP 502: not a JSON answer (<html><body>Bad Gateway</body></html>)',
      });
      expect(await failure(adapter.fetchLead({ ...on(net), leadId: '1' }))).toEqual({
        name: 'ChannelError',
        reason: 'notFound',
        httpCode: 404,
        providerMessage: 'HTTP 404: not a JSON answer (Not Found)',
        retryable: false,
        message: 'notFound: HTTP 404: not a JSON answer (Not Found)',
      });
    });

    it('a 200 that is not a JSON object is unavailable', async () => {
      network.answer({ status: 200, text: 'OK' });
      expect(await failure(reply())).toEqual({
        name: 'ChannelError',
        reason: 'unavailable',
        httpCode: 200,
        providerMessage: 'HTTP 200: not a JSON object (OK)',
        retryable: true,
        message: 'unavailable: HTTP 200: not a JSON object (OK)',
      });
    });

    it('no answer within the timeout is unavailable and retryable, without an HTTP code', async () => {
      const impatient = graphApiAdapter({ baseUrl: network.url, accessToken: () => TOKEN, timeoutMs: 150 });
      network.answer('hang');
      expect(await failure(impatient.likeComment({ ...on(photo), commentId: '1785' }))).toEqual({
        name: 'ChannelError',
        reason: 'unavailable',
        httpCode: null,
        providerMessage: 'No answer within 150 ms (POST /1785/likes)',
        retryable: true,
        message: 'unavailable: No answer within 150 ms (POST /1785/likes)',
      });
      expect(network.seen.map((s) => s.url)).toEqual(['/v21.0/1785/likes']);
    });

    it('a refused connection is unavailable and retryable', async () => {
      const closed = new FakeNetwork();
      await closed.start();
      await closed.stop();
      const nowhere = graphApiAdapter({ baseUrl: closed.url, accessToken: () => TOKEN, timeoutMs: 2000 });
      const err = await failure(nowhere.likeComment({ ...on(photo), commentId: '1785' }));
      expect(err).toEqual({
        name: 'ChannelError',
        reason: 'unavailable',
        httpCode: null,
        providerMessage: expect.stringMatching(/^Request failed: connect ECONNREFUSED 127\.0\.0\.1:\d+$/),
        retryable: true,
        message: expect.stringMatching(/^unavailable: Request failed: connect ECONNREFUSED/),
      });
    });
  });

  describe('configuration', () => {
    it('CHANNEL_ADAPTER defaults to sandbox; http needs a base URL and a token', () => {
      expect(loadConfig({}).CHANNEL_ADAPTER).toBe('sandbox');
      expect(() => loadConfig({ CHANNEL_ADAPTER: 'http' })).toThrow(ConfigError);
      expect(() => loadConfig({ CHANNEL_ADAPTER: 'http' })).toThrow(
        'Invalid configuration:\n  GRAPH_API_BASE_URL: is required when CHANNEL_ADAPTER is http (not set)\n  GRAPH_API_ACCESS_TOKEN: is required when CHANNEL_ADAPTER is http (not set)',
      );
      expect(() => loadConfig({ CHANNEL_ADAPTER: 'smtp' })).toThrow('CHANNEL_ADAPTER: must be sandbox or http (got "smtp")');
      expect(() => loadConfig({ GRAPH_API_BASE_URL: 'graph.example.com' })).toThrow('GRAPH_API_BASE_URL: must be an http(s):// URL (got "graph.example.com")');
      expect(() => loadConfig({ GRAPH_API_TIMEOUT_MS: '0' })).toThrow('GRAPH_API_TIMEOUT_MS: must be positive (got "0")');
    });

    it('CHANNEL_ADAPTER=http: the registry builds the Graph API adapter with the configured URL, token and timeout', async () => {
      const config = loadConfig({ CHANNEL_ADAPTER: 'http', GRAPH_API_BASE_URL: network.url, GRAPH_API_ACCESS_TOKEN: 'EAAconfigured', GRAPH_API_TIMEOUT_MS: '3000' });
      expect(config.GRAPH_API_TIMEOUT_MS).toBe(3000);
      // The HTTP adapter needs no database.
      const configured = createChannelAdapter(config, undefined as never);
      expect(configured.name).toBe('http');
      network.answer({ status: 200, json: { success: true } });
      await configured.hideComment({ ...on(photo), commentId: '1785' });
      expect(network.seen).toEqual([{ method: 'POST', url: '/v21.0/1785', contentType: 'application/json', authorization: 'Bearer EAAconfigured', body: { hide: true } }]);
    });
  });
});
