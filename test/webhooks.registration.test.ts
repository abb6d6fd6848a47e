import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { forbidden, unlimited } from './support/endpoints.js';
import { fixtures } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { digits, invalidRequestData, isoNow, notFound, validationError } from './support/rest.js';
import { startReceiver, type Receiver } from './support/webhook-receiver.js';

/**
 * Outbound webhooks, the REST surface: the automation tool's exact create and delete calls, the
 * external (flow-data) registrations, every validation rule with the contract's error envelope, the
 * SSRF guard at registration in every spelling of a private address, the token scope, and workspace
 * isolation. Every answer is also checked against the served OpenAPI document. Nothing here sends a
 * webhook (no engine runs): a refused URL is never contacted, and the one loopback receiver allowed
 * through OUTBOUND_ALLOWED_HOSTS sees no request.
 */
describe('webhooks: registration and the REST surface', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let receiver: Receiver;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  const tag = { vip: '', lead: '', deleted: '', theirs: '' };
  const sequence = { welcome: '', theirs: '' };

  const secretPattern = /^whsec_[A-Za-z0-9+/]{43}=$/;
  const call = (method: string, path: string, body?: unknown, token = ws.developerToken) => api.request(method, path, { token, body });
  const create = (body: unknown, token = ws.developerToken) => call('POST', '/v1/webhooks', body, token);
  const valid = (over: Record<string, unknown> = {}) => ({ name: 'Hook', url: 'https://hooks.example.com/in', conditions: [{ type: 'newContact' }], ...over });
  const urlRefused = (message: string, path: (string | number)[] = ['body', 'url']) => invalidRequestData([{ message, path }]);
  const webhookCount = async (workspaceId: number) => (await t.db.selectFrom('webhooks').select('id').where('workspace_id', '=', workspaceId).execute()).length;

  beforeAll(async () => {
    receiver = await startReceiver();
    t = await createTestApp({ ...unlimited, OUTBOUND_ALLOWED_HOSTS: receiver.host });
    api = await contractClient(t);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
    const f = fixtures(t.db, ws.id);
    tag.vip = String(await f.tag('VIP'));
    tag.lead = String(await f.tag('Lead'));
    tag.deleted = String(await f.tag('Gone', { deletedAt: '2026-10-01T00:00:00.000Z' }));
    tag.theirs = String(await fixtures(t.db, other.id).tag('Theirs'));
    const seq = async (workspaceId: number, name: string) =>
      String((await t.db.insertInto('sequences').values({ workspace_id: workspaceId, name, created_at: '2026-11-01T10:00:00.000Z', updated_at: '2026-11-01T10:00:00.000Z' }).returning('id').executeTakeFirstOrThrow()).id);
    sequence.welcome = await seq(ws.id, 'Welcome');
    sequence.theirs = await seq(other.id, 'Theirs');
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  describe("the automation tool's calls", () => {
    it('POST /v1/webhooks {name, url, conditions: [{type: tagApplied, sourceId}]} is 201 with the webhook, its id and its secret; DELETE is 204 with an empty body', async () => {
      const url = 'https://hooks.example.com/webhook/5f0c2a/tag-applied';
      const res = await create({ name: 'n8n: tagApplied', url, conditions: [{ type: 'tagApplied', sourceId: tag.vip }] });
      expect(res.status).toBe(201);
      const created = {
        id: digits(),
        name: 'n8n: tagApplied',
        url,
        conditions: [{ type: 'tagApplied', sourceId: tag.vip }],
        enabled: true,
        disabledReason: null,
        failingSince: null,
        createdAt: isoNow(),
        updatedAt: res.body.createdAt,
        secret: expect.stringMatching(secretPattern),
      };
      expect(res.body).toEqual(created);
      expect(res.headers.get('location')).toBe(`/v1/webhooks/${res.body.id}`);
      // Standard Webhooks: whsec_ + base64 of 32 random bytes.
      expect(Buffer.from(res.body.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);

      const { secret, ...listed } = res.body;
      expect((await call('GET', '/v1/webhooks')).body).toEqual({ data: [listed], pageCount: 1 });
      expect((await call('GET', `/v1/webhooks/${res.body.id}`)).body).toEqual({ ...listed, secret });

      const deleted = await call('DELETE', `/v1/webhooks/${res.body.id}`);
      expect(deleted.status).toBe(204);
      expect(deleted.text).toBe('');
      expect(deleted.headers.get('content-type')).toBeNull();
      expect(await call('GET', `/v1/webhooks/${res.body.id}`)).toMatchObject({ status: 404, body: notFound('Webhook') });
      expect(await call('DELETE', `/v1/webhooks/${res.body.id}`)).toMatchObject({ status: 404, body: notFound('Webhook') });
      expect((await call('GET', '/v1/webhooks')).body).toEqual({ data: [], pageCount: 0 });
    });

    it('each secret is new: two webhooks never share one', async () => {
      const a = await create(valid());
      const b = await create(valid());
      expect(a.body.secret).not.toBe(b.body.secret);
      for (const r of [a, b]) expect((await call('DELETE', `/v1/webhooks/${r.body.id}`)).status).toBe(204);
    });

    it('the two referral types are accepted (201), and the API reference, the GraphQL schema and the docs say they never fire', async () => {
      const conditions = [{ type: 'contactReferredANewContact' }, { type: 'contactReferredExistingContact' }];
      const res = await create({ name: 'n8n: referrals', url: 'https://hooks.example.com/referrals', conditions });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ name: 'n8n: referrals', conditions, enabled: true, disabledReason: null });

      const doc = (await t.request('GET', '/v1/openapi.json')).body;
      expect(doc.components.schemas.EventType.description).toContain('contactReferredANewContact and contactReferredExistingContact are accepted and never fire');
      for (const { type } of conditions) {
        expect(doc.webhooks[type].post.description, type).toContain('never sent');
        expect(doc.components.schemas[`${type[0]!.toUpperCase()}${type.slice(1)}Event`].description, type).toMatch(/^Never sent: this service has no referrals/);
      }
      const graphql = await t.graphql('{ __type(name: "EventType") { description } }', {}, { token: ws.developerToken });
      expect(graphql.body.data.__type.description).toContain('contactReferredANewContact and contactReferredExistingContact are accepted and never fire');
      const docs = readFileSync(new URL('../docs/webhooks.md', import.meta.url), 'utf8');
      expect(docs).toContain('| `contactReferredANewContact` | `contact_referred_new_contact` | never fires: this service has no referrals |');
      expect(docs).toContain('| `contactReferredExistingContact` | `contact_referred_existing_contact` | never fires |');
      expect((await call('DELETE', `/v1/webhooks/${res.body.id}`)).status).toBe(204);
    });

    it('POST /v1/external-webhooks {url, event, provider} is 201, listed, and DELETE is 204 with an empty body', async () => {
      const body = { url: 'https://hooks.example.com/flows/order-placed', event: 'order_placed', provider: 'n8n' };
      const res = await call('POST', '/v1/external-webhooks', body);
      expect(res.status).toBe(201);
      const registration = { id: digits(), ...body, createdAt: isoNow(), updatedAt: res.body.createdAt };
      expect(res.body).toEqual(registration);
      expect(res.headers.get('location')).toBe(`/v1/external-webhooks/${res.body.id}`);
      expect((await call('GET', '/v1/external-webhooks')).body).toEqual({ data: [res.body], pageCount: 1 });
      // Another workspace sees none and cannot delete it.
      expect((await call('GET', '/v1/external-webhooks', undefined, other.developerToken)).body).toEqual({ data: [], pageCount: 0 });
      expect(await call('DELETE', `/v1/external-webhooks/${res.body.id}`, undefined, other.developerToken)).toMatchObject({ status: 404, body: notFound('External webhook') });

      const deleted = await call('DELETE', `/v1/external-webhooks/${res.body.id}`);
      expect(deleted.status).toBe(204);
      expect(deleted.text).toBe('');
      expect((await call('GET', '/v1/external-webhooks')).body).toEqual({ data: [], pageCount: 0 });
      expect(await call('DELETE', `/v1/external-webhooks/${res.body.id}`)).toMatchObject({ status: 404, body: notFound('External webhook') });
    });

    it('external webhooks: event and provider trimmed and required, url checked as for webhooks', async () => {
      expect((await call('POST', '/v1/external-webhooks', { url: 'https://hooks.example.com/x', event: ' ', provider: '' })).body).toEqual(
        invalidRequestData([
          { message: 'event must not be empty', path: ['body', 'event'] },
          { message: 'provider must not be empty', path: ['body', 'provider'] },
        ]),
      );
      expect((await call('POST', '/v1/external-webhooks', { url: 'https://hooks.example.com/x', event: 'e' })).body).toEqual(invalidRequestData([{ message: 'Required', path: ['body', 'provider'] }]));
      for (const [url, message] of [
        ['http://169.254.169.254/latest/meta-data/', "url's host 169.254.169.254 is not a public address"],
        ['http://localhost/', "url's host localhost is a local name, not a public host"],
        ['ftp://example.com/x', 'url must be http or https'],
      ]) {
        const res = await call('POST', '/v1/external-webhooks', { url, event: 'e', provider: 'n8n' });
        expect(res.status, url).toBe(422);
        expect(res.body, url).toEqual(urlRefused(message));
      }
      const trimmed = await call('POST', '/v1/external-webhooks', { url: 'https://hooks.example.com/x', event: '  order_placed ', provider: ' n8n ' });
      expect(trimmed.body).toMatchObject({ event: 'order_placed', provider: 'n8n' });
      expect((await call('DELETE', `/v1/external-webhooks/${trimmed.body.id}`)).status).toBe(204);
    });
  });

  describe('validation: 422 with the contract envelope, nothing stored', () => {
    it('name is trimmed, 1 to 255 characters', async () => {
      const trimmed = await create(valid({ name: '  n8n: tagApplied \t' }));
      expect(trimmed.status).toBe(201);
      expect(trimmed.body.name).toBe('n8n: tagApplied');
      const longest = await create(valid({ name: 'n'.repeat(255) }));
      expect(longest.status).toBe(201);
      for (const r of [trimmed, longest]) await call('DELETE', `/v1/webhooks/${r.body.id}`);

      const before = await webhookCount(ws.id);
      for (const [name, message] of [
        ['', 'name must not be empty'],
        ['   ', 'name must not be empty'],
        ['n'.repeat(256), 'name must be at most 255 characters'],
      ]) {
        const res = await create(valid({ name }));
        expect(res.status).toBe(422);
        expect(res.body).toEqual(invalidRequestData([{ message, path: ['body', 'name'] }]));
      }
      expect((await create({ url: 'https://hooks.example.com/in', conditions: [{ type: 'newContact' }] })).body).toEqual(invalidRequestData([{ message: 'Required', path: ['body', 'name'] }]));
      expect(await webhookCount(ws.id)).toBe(before);
    });

    it('url: http or https, absolute, at most 1000 characters', async () => {
      const base = 'https://hooks.example.com/';
      const longest = `${base}${'a'.repeat(1000 - base.length)}`;
      const ok = await create(valid({ url: longest }));
      expect(ok.status).toBe(201);
      expect(ok.body.url).toBe(longest);
      await call('DELETE', `/v1/webhooks/${ok.body.id}`);

      const before = await webhookCount(ws.id);
      for (const [url, message] of [
        [`${longest}a`, 'url must be at most 1000 characters'],
        ['ftp://example.com/file', 'url must be http or https'],
        ['file:///etc/passwd', 'url must be http or https'],
        ['javascript:alert(1)', 'url must be http or https'],
        ['gopher://example.com/', 'url must be http or https'],
        ['hooks.example.com/in', 'url must be an absolute URL'],
        ['', 'url must be an absolute URL'],
      ]) {
        const res = await create(valid({ url }));
        expect(res.status, url).toBe(422);
        expect(res.body, url).toEqual(urlRefused(message));
      }
      expect((await create(valid({ url: 42 }))).body).toEqual(invalidRequestData([{ message: 'Invalid input: expected string, received number', path: ['body', 'url'] }]));
      expect(await webhookCount(ws.id)).toBe(before);
    });

    it('conditions: at least one, at most 50, known types; sourceId required for the sequence types and refused on a type without a source', async () => {
      const before = await webhookCount(ws.id);
      expect((await create(valid({ conditions: [] }))).body).toEqual(invalidRequestData([{ message: 'conditions must hold at least one condition', path: ['body', 'conditions'] }]));
      expect((await create({ name: 'x', url: 'https://hooks.example.com/in' })).body).toEqual(invalidRequestData([{ message: 'Required', path: ['body', 'conditions'] }]));
      expect((await create(valid({ conditions: Array.from({ length: 51 }, () => ({ type: 'newContact' })) }))).body).toEqual(
        invalidRequestData([{ message: 'conditions must hold at most 50 conditions', path: ['body', 'conditions'] }]),
      );
      expect((await create(valid({ conditions: [{ type: 'orderPlaced' }] }))).body).toEqual(
        invalidRequestData([{ message: expect.stringMatching(/^Invalid option: expected one of "archived"\|.*\|"unsubscribedFromSequence"$/), path: ['body', 'conditions', 0, 'type'] }]),
      );
      expect(
        (
          await create(
            valid({
              conditions: [
                { type: 'subscribedToSequence' },
                { type: 'unsubscribedFromSequence' },
                { type: 'newContact', sourceId: tag.vip },
                { type: 'customFieldValueChanged', sourceId: '1' },
                { type: 'tagApplied', sourceId: 'vip' },
                { type: 'tagApplied', extra: true },
              ],
            }),
          )
        ).body,
      ).toEqual(
        invalidRequestData([
          { message: 'sourceId is required for subscribedToSequence: the sequence', path: ['body', 'conditions', 0, 'sourceId'] },
          { message: 'sourceId is required for unsubscribedFromSequence: the sequence', path: ['body', 'conditions', 1, 'sourceId'] },
          { message: 'sourceId applies to tagApplied, tagRemoved, subscribedToSequence, unsubscribedFromSequence only', path: ['body', 'conditions', 2, 'sourceId'] },
          { message: 'sourceId applies to tagApplied, tagRemoved, subscribedToSequence, unsubscribedFromSequence only', path: ['body', 'conditions', 3, 'sourceId'] },
          { message: 'must be a digit string', path: ['body', 'conditions', 4, 'sourceId'] },
          { message: 'Unrecognized key: "extra"', path: ['body', 'conditions', 5, 'extra'] },
        ]),
      );
      expect((await create({ ...valid(), secret: 'whsec_mine' })).body).toEqual(invalidRequestData([{ message: 'Unrecognized key: "secret"', path: ['body', 'secret'] }]));
      expect(await webhookCount(ws.id)).toBe(before);
    });

    it("unknown tags and sequences are refused (422 validation naming them): a deleted tag and another workspace's count as unknown", async () => {
      const before = await webhookCount(ws.id);
      const refused = await create(
        valid({
          conditions: [
            { type: 'tagApplied', sourceId: '999999' },
            { type: 'tagRemoved', sourceId: tag.deleted },
            { type: 'tagApplied', sourceId: tag.theirs },
            { type: 'tagApplied', sourceId: tag.vip },
            { type: 'subscribedToSequence', sourceId: sequence.theirs },
            { type: 'unsubscribedFromSequence', sourceId: '888888' },
            { type: 'subscribedToSequence', sourceId: sequence.welcome },
          ],
        }),
      );
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual(validationError({ field: 'conditions.sourceId', reason: 'notFound', ids: ['999999', tag.deleted, tag.theirs, sequence.theirs, '888888'] }));
      expect(await webhookCount(ws.id)).toBe(before);

      // Known ones, and the sourced types without a source (any tag), are accepted.
      const conditions = [
        { type: 'tagApplied', sourceId: tag.vip },
        { type: 'tagRemoved', sourceId: tag.lead },
        { type: 'tagApplied' },
        { type: 'subscribedToSequence', sourceId: sequence.welcome },
        { type: 'unsubscribedFromSequence', sourceId: sequence.welcome },
        { type: 'newContact' },
      ];
      const ok = await create(valid({ conditions }));
      expect(ok.status).toBe(201);
      expect(ok.body.conditions).toEqual(conditions);
      await call('DELETE', `/v1/webhooks/${ok.body.id}`);
    });

    it('PATCH changes name, url, conditions or enabled with the same rules, and answers without the secret', async () => {
      const made = await create(valid({ conditions: [{ type: 'tagApplied', sourceId: tag.vip }] }));
      const id = made.body.id;
      const { secret: _secret, ...publicView } = made.body;
      const changed = await call('PATCH', `/v1/webhooks/${id}`, { name: ' Renamed ', url: 'https://other.example.com/x', conditions: [{ type: 'tagRemoved', sourceId: tag.lead }], enabled: false });
      expect(changed.status).toBe(200);
      expect(changed.body).toEqual({
        ...publicView,
        name: 'Renamed',
        url: 'https://other.example.com/x',
        conditions: [{ type: 'tagRemoved', sourceId: tag.lead }],
        enabled: false,
        updatedAt: isoNow(),
      });
      for (const [body, expected] of [
        [{}, invalidRequestData([{ message: 'Provide at least one field to change', path: ['body'] }])],
        [{ url: 'http://10.1.2.3/' }, urlRefused("url's host 10.1.2.3 is not a public address")],
        [{ name: '' }, invalidRequestData([{ message: 'name must not be empty', path: ['body', 'name'] }])],
        [{ conditions: [] }, invalidRequestData([{ message: 'conditions must hold at least one condition', path: ['body', 'conditions'] }])],
        [{ conditions: [{ type: 'tagApplied', sourceId: tag.theirs }] }, validationError({ field: 'conditions.sourceId', reason: 'notFound', ids: [tag.theirs] })],
        [{ enabled: 'yes' }, invalidRequestData([{ message: 'Invalid input: expected boolean, received string', path: ['body', 'enabled'] }])],
      ] as const) {
        const res = await call('PATCH', `/v1/webhooks/${id}`, body);
        expect(res.status, JSON.stringify(body)).toBe(422);
        expect(res.body, JSON.stringify(body)).toEqual(expected);
      }
      // Unchanged by the refusals.
      expect((await call('GET', `/v1/webhooks/${id}`)).body).toEqual({ ...changed.body, secret: made.body.secret });
      expect(await call('PATCH', '/v1/webhooks/999999', { enabled: true })).toMatchObject({ status: 404, body: notFound('Webhook') });
      await call('DELETE', `/v1/webhooks/${id}`);
    });

    it("ids that cannot name a webhook are 422 (not digits) or 404 (no such webhook), and the delivery routes say which record is missing", async () => {
      expect((await call('GET', '/v1/webhooks/abc')).body).toEqual(invalidRequestData([{ message: 'must be a digit string', path: ['params', 'id'] }]));
      for (const [method, path] of [
        ['GET', '/v1/webhooks/99999999999999999999'],
        ['GET', '/v1/webhooks/424242/deliveries'],
        ['POST', '/v1/webhooks/424242/test'],
        ['POST', '/v1/webhooks/424242/secret/rotate'],
      ] as const) {
        expect(await call(method, path), path).toMatchObject({ status: 404, body: notFound('Webhook') });
      }
      expect(await call('POST', '/v1/webhooks/424242/recover', { since: '2026-01-01T00:00:00Z' })).toMatchObject({ status: 404, body: notFound('Webhook') });
      const made = await create(valid());
      expect(await call('POST', `/v1/webhooks/${made.body.id}/deliveries/424242/retry`)).toMatchObject({ status: 404, body: notFound('Delivery') });
      expect((await call('POST', `/v1/webhooks/${made.body.id}/recover`, { since: 'yesterday' })).status).toBe(422);
      await call('DELETE', `/v1/webhooks/${made.body.id}`);
    });
  });

  describe('SSRF: private and local addresses are refused at registration (422), in every spelling', () => {
    const refusals: [string, string][] = [
      ['http://127.0.0.1/', "url's host 127.0.0.1 is not a public address"],
      ['http://127.1/', "url's host 127.0.0.1 is not a public address"],
      ['http://2130706433/', "url's host 127.0.0.1 is not a public address"],
      ['http://0x7f.0.0.1/', "url's host 127.0.0.1 is not a public address"],
      ['http://0x7f000001/', "url's host 127.0.0.1 is not a public address"],
      ['http://0177.0.0.1/', "url's host 127.0.0.1 is not a public address"],
      ['http://127.255.0.9:8080/x', "url's host 127.255.0.9 is not a public address"],
      ['http://[::1]/', "url's host [::1] is not a public address"],
      ['http://[0:0:0:0:0:0:0:1]/', "url's host [::1] is not a public address"],
      ['http://[::ffff:127.0.0.1]/', "url's host [::ffff:7f00:1] is not a public address"],
      ['http://[0:0:0:0:0:ffff:7f00:1]/', "url's host [::ffff:7f00:1] is not a public address"],
      ['http://[::127.0.0.1]/', "url's host [::7f00:1] is not a public address"],
      ['http://localhost/', "url's host localhost is a local name, not a public host"],
      ['http://LOCALHOST./', "url's host localhost. is a local name, not a public host"],
      ['http://api.localhost/', "url's host api.localhost is a local name, not a public host"],
      ['http://metadata/computeMetadata/v1/', "url's host metadata is not a public host name (it has no dot)"],
      ['http://10.0.0.1/', "url's host 10.0.0.1 is not a public address"],
      ['https://10.255.255.255:8443/', "url's host 10.255.255.255 is not a public address"],
      ['http://172.16.0.1/', "url's host 172.16.0.1 is not a public address"],
      ['http://172.31.255.254/', "url's host 172.31.255.254 is not a public address"],
      ['http://192.168.1.1/', "url's host 192.168.1.1 is not a public address"],
      ['http://169.254.169.254/latest/meta-data/', "url's host 169.254.169.254 is not a public address"],
      ['http://[::ffff:169.254.169.254]/', "url's host [::ffff:a9fe:a9fe] is not a public address"],
      ['http://100.64.0.1/', "url's host 100.64.0.1 is not a public address"],
      ['http://0.0.0.0/', "url's host 0.0.0.0 is not a public address"],
      ['http://0/', "url's host 0.0.0.0 is not a public address"],
      ['http://[::]/', "url's host [::] is not a public address"],
      ['http://224.0.0.1/', "url's host 224.0.0.1 is not a public address"],
      ['http://255.255.255.255/', "url's host 255.255.255.255 is not a public address"],
      ['http://[fd00::1]/', "url's host [fd00::1] is not a public address"],
      ['http://[fdff:ffff:ffff::1]/', "url's host [fdff:ffff:ffff::1] is not a public address"],
      ['http://[fc00::1]/', "url's host [fc00::1] is not a public address"],
      ['http://[fe80::1]/', "url's host [fe80::1] is not a public address"],
      ['http://[ff02::1]/', "url's host [ff02::1] is not a public address"],
      ['http://[64:ff9b::7f00:1]/', "url's host [64:ff9b::7f00:1] is not a public address"],
      ['http://[2002:7f00:1::1]/', "url's host [2002:7f00:1::1] is not a public address"],
      ['http://user:pass@example.com/', 'url must not carry a user name or password'],
      ['http://user@example.com/', 'url must not carry a user name or password'],
      ['http://127.0.0.1:80@example.com/', 'url must not carry a user name or password'],
      ['ftp://example.com/file', 'url must be http or https'],
    ];

    it('POST /v1/webhooks refuses each, naming the normalised host at body.url, and stores nothing', async () => {
      const before = await webhookCount(ws.id);
      for (const [url, message] of refusals) {
        const res = await create(valid({ url }));
        expect(res.status, url).toBe(422);
        expect(res.body, url).toEqual(urlRefused(message));
      }
      expect(await webhookCount(ws.id)).toBe(before);
    });

    it('PATCH /v1/webhooks/{id} refuses each and keeps the url', async () => {
      const made = await create(valid());
      for (const [url, message] of refusals) {
        const res = await call('PATCH', `/v1/webhooks/${made.body.id}`, { url });
        expect(res.status, url).toBe(422);
        expect(res.body, url).toEqual(urlRefused(message));
      }
      expect((await call('GET', `/v1/webhooks/${made.body.id}`)).body.url).toBe('https://hooks.example.com/in');
      await call('DELETE', `/v1/webhooks/${made.body.id}`);
    });

    it('POST /v1/external-webhooks refuses each', async () => {
      for (const [url, message] of refusals) {
        const res = await call('POST', '/v1/external-webhooks', { url, event: 'order_placed', provider: 'n8n' });
        expect(res.status, url).toBe(422);
        expect(res.body, url).toEqual(urlRefused(message));
      }
      expect((await call('GET', '/v1/external-webhooks')).body).toEqual({ data: [], pageCount: 0 });
    });

    it('a loopback receiver listed in OUTBOUND_ALLOWED_HOSTS is accepted, on exactly that host and port; registering contacts nobody', async () => {
      const allowed = await create(valid({ url: receiver.url('/hooks/in?x=1') }));
      expect(allowed.status).toBe(201);
      expect(allowed.body.url).toBe(receiver.url('/hooks/in?x=1'));
      for (const [url, message] of [
        [`http://127.0.0.1:${receiver.port === 65535 ? 65534 : receiver.port + 1}/`, "url's host 127.0.0.1 is not a public address"],
        [`http://localhost:${receiver.port}/`, "url's host localhost is a local name, not a public host"],
        [`http://[::1]:${receiver.port}/`, "url's host [::1] is not a public address"],
      ]) {
        const res = await create(valid({ url }));
        expect(res.status, url).toBe(422);
        expect(res.body, url).toEqual(urlRefused(message));
      }
      await call('DELETE', `/v1/webhooks/${allowed.body.id}`);
      expect(receiver.received).toEqual([]);
    });

    it('public host names and public addresses are accepted', async () => {
      for (const url of ['https://hooks.example.com/a', 'http://8.8.8.8/hook', 'https://[2001:4860:4860::8888]/hook', 'https://EXAMPLE.com./x']) {
        const res = await create(valid({ url }));
        expect(res.status, url).toBe(201);
        expect(res.body.url).toBe(new URL(url).href);
        await call('DELETE', `/v1/webhooks/${res.body.id}`);
      }
    });
  });

  describe('access', () => {
    it('needs the webhooks scope; a read-only token reads but does not write', async () => {
      const tagsOnly = await t.token(ws.id, { kind: 'developer', scopes: ['tags'] });
      const readOnly = await t.token(ws.id, { kind: 'developer', readOnly: true });
      const scoped = await t.token(ws.id, { kind: 'developer', scopes: ['webhooks'] });
      const missingScope = forbidden({ reason: 'missingScope', scope: 'webhooks' });
      for (const [method, path, body] of [
        ['GET', '/v1/webhooks', undefined],
        ['POST', '/v1/webhooks', valid()],
        ['GET', '/v1/external-webhooks', undefined],
        ['POST', '/v1/external-webhooks', { url: 'https://hooks.example.com/x', event: 'e', provider: 'n8n' }],
      ] as const) {
        expect(await call(method, path, body, tagsOnly), `${method} ${path}`).toMatchObject({ status: 403, body: missingScope });
      }
      expect(await create(valid(), readOnly)).toMatchObject({ status: 403, body: forbidden({ reason: 'readOnlyToken' }) });
      expect((await call('GET', '/v1/webhooks', undefined, readOnly)).status).toBe(200);
      const made = await create(valid(), scoped);
      expect(made.status).toBe(201);
      expect(await call('DELETE', `/v1/webhooks/${made.body.id}`, undefined, readOnly)).toMatchObject({ status: 403, body: forbidden({ reason: 'readOnlyToken' }) });
      expect((await call('DELETE', `/v1/webhooks/${made.body.id}`, undefined, scoped)).status).toBe(204);
    });

    it('the signing secret is for tokens that may change the webhook: a read-only token reads it without', async () => {
      const readOnly = await t.token(ws.id, { kind: 'developer', readOnly: true });
      const made = await create(valid({ name: 'Secret keeper' }));
      const full = await call('GET', `/v1/webhooks/${made.body.id}`);
      expect(full.body.secret).toBe(made.body.secret);
      const read = await call('GET', `/v1/webhooks/${made.body.id}`, undefined, readOnly);
      expect(read.status).toBe(200);
      expect(read.body).not.toHaveProperty('secret');
      const { secret: _secret, ...rest } = full.body;
      expect(read.body).toEqual(rest);
      const graphql = await t.graphql<any>(`{ webhook(id: "${made.body.id}") { name secret } }`, undefined, { token: readOnly });
      expect(graphql.body).toEqual({ data: { webhook: { name: 'Secret keeper', secret: null } } });
    });

    it("another workspace's token cannot read, change, rotate, test, recover or delete a webhook (404), nor see it listed", async () => {
      const mine = await create(valid({ name: 'Mine', conditions: [{ type: 'tagApplied', sourceId: tag.vip }] }));
      const id = mine.body.id;
      const theirs = other.developerToken;
      for (const [method, path, body] of [
        ['GET', `/v1/webhooks/${id}`, undefined],
        ['PATCH', `/v1/webhooks/${id}`, { enabled: false }],
        ['PATCH', `/v1/webhooks/${id}`, { url: 'https://evil.example.com/steal' }],
        ['POST', `/v1/webhooks/${id}/secret/rotate`, undefined],
        ['GET', `/v1/webhooks/${id}/deliveries`, undefined],
        ['POST', `/v1/webhooks/${id}/test`, undefined],
        ['POST', `/v1/webhooks/${id}/recover`, { since: '2026-01-01T00:00:00Z' }],
        ['DELETE', `/v1/webhooks/${id}`, undefined],
      ] as const) {
        expect(await call(method, path, body, theirs), `${method} ${path}`).toMatchObject({ status: 404, body: notFound('Webhook') });
      }
      expect((await call('GET', '/v1/webhooks', undefined, theirs)).body).toEqual({ data: [], pageCount: 0 });
      // Untouched: same record, same secret, and the test ping made no delivery.
      expect((await call('GET', `/v1/webhooks/${id}`)).body).toEqual(mine.body);
      expect((await call('GET', `/v1/webhooks/${id}/deliveries`)).body).toEqual({ data: [], pageCount: 0 });
      await call('DELETE', `/v1/webhooks/${id}`);
    });
  });
});
