import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreateExternalWebhookDocument,
  CreateWebhookDocument,
  DeleteWebhookDocument,
  RecoverWebhookDocument,
  RetryWebhookDeliveryDocument,
  RotateWebhookSecretDocument,
  UpdateWebhookDocument,
  WebhookDeliveriesDocument,
  WebhookDocument,
  WebhooksDocument,
} from './graphql/generated/graphql.js';
import { unlimited } from './support/endpoints.js';
import { fixtures } from './support/fixtures.js';
import { fieldError, gql, invalidInput } from './support/graphql.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

/** Webhooks as GraphQL queries and mutations: the services, schemas and errors of REST. */
describe('GraphQL webhooks', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let tag: number;

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
    tag = await fixtures(t.db, ws.id).tag('vip');
  });
  afterAll(() => t.close());

  const as = (w: TestWorkspace) => ({ token: w.developerToken });

  it('creates what REST reads back, secret included; lists without asking for secrets', async () => {
    const created = await gql(
      t,
      CreateWebhookDocument,
      { input: { name: '  n8n: tagApplied ', url: 'https://hooks.example.com/tag', conditions: [{ type: 'tagApplied', sourceId: String(tag) }] } },
      as(ws),
    );
    expect(created.body.errors).toBeUndefined();
    const hook = created.body.data!.createWebhook;
    expect(hook).toMatchObject({ name: 'n8n: tagApplied', url: 'https://hooks.example.com/tag', conditions: [{ type: 'tagApplied', sourceId: String(tag) }], enabled: true });
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    const rest = await t.request('GET', `/v1/webhooks/${hook.id}`, as(ws));
    expect(rest.body).toEqual({ ...hook, conditions: [{ type: 'tagApplied', sourceId: String(tag) }] });
    const byGlobalId = await gql(t, WebhookDocument, { id: encodeGlobalID('Webhook', hook.id) }, as(ws));
    expect(byGlobalId.body.data!.webhook).toEqual(hook);

    const list = await gql(t, WebhooksDocument, { perPage: 50 }, as(ws));
    expect(list.body.data!.webhooks.data.map((w) => w.id)).toContain(hook.id);
  });

  it('refuses a private address with the path of the input field, and unknown tags with their ids', async () => {
    const loopback = await gql(t, CreateWebhookDocument, { input: { name: 'x', url: 'http://127.1/hook', conditions: [{ type: 'newContact' }] } }, as(ws));
    expect(loopback.body.errors).toEqual([invalidInput(['createWebhook'], [{ message: "url's host 127.0.0.1 is not a public address", path: ['input', 'url'] }], expect.any(String) as never)]);

    const sequenceWithoutSource = await gql(t, CreateWebhookDocument, { input: { name: 'x', url: 'https://hooks.example.com/a', conditions: [{ type: 'subscribedToSequence' }] } }, as(ws));
    expect(sequenceWithoutSource.body.errors?.[0]?.extensions).toMatchObject({ code: 'invalidRequestData', status: 422 });
    expect(sequenceWithoutSource.body.errors?.[0]?.extensions.data.issues[0].path).toEqual(['input', 'conditions', 0, 'sourceId']);

    const theirs = await fixtures(t.db, other.id).tag('theirs');
    const foreignTag = await gql(t, CreateWebhookDocument, { input: { name: 'x', url: 'https://hooks.example.com/a', conditions: [{ type: 'tagApplied', sourceId: String(theirs) }] } }, as(ws));
    expect(foreignTag.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation', status: 422 });
  });

  it('updates, rotates, lists deliveries, retries, recovers and deletes: only in its own workspace', async () => {
    const id = await fixtures(t.db, ws.id).webhook('ours');
    const delivery = await fixtures(t.db, ws.id).webhookDelivery(id);

    // Another workspace's token finds nothing of it.
    const foreign = await gql(t, UpdateWebhookDocument, { id: String(id), input: { enabled: false } }, as(other));
    expect(foreign.body.errors).toEqual([fieldError(['updateWebhook'], { defined: true, code: 'notFound', status: 404, message: 'Resource not found', data: { resource: 'Webhook' } }, 'Webhook not found')]);

    const updated = await gql(t, UpdateWebhookDocument, { id: String(id), input: { enabled: false, name: 'renamed' } }, as(ws));
    expect(updated.body.data!.updateWebhook).toMatchObject({ id: String(id), enabled: false, name: 'renamed' });
    // Disabled, it sends nothing on request: enabled again, it does.
    const refused = await gql(t, RetryWebhookDeliveryDocument, { id: String(id), deliveryId: String(delivery) }, as(ws));
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation', status: 422, data: { field: 'enabled', reason: 'webhookDisabled' } });
    expect((await gql(t, UpdateWebhookDocument, { id: String(id), input: { enabled: true } }, as(ws))).body.data!.updateWebhook.enabled).toBe(true);

    const before = (await gql(t, WebhookDocument, { id: String(id) }, as(ws))).body.data!.webhook.secret;
    const rotated = await gql(t, RotateWebhookSecretDocument, { id: String(id) }, as(ws));
    expect(rotated.body.data!.rotateWebhookSecret.secret).not.toBe(before);

    const deliveries = await gql(t, WebhookDeliveriesDocument, { id: String(id), status: 'pending' }, as(ws));
    expect(deliveries.body.data!.webhookDeliveries).toMatchObject({ pageCount: 1, data: [{ id: String(delivery), webhookId: String(id), event: 'tag_applied', status: 'pending', attempts: [] }] });
    const none = await gql(t, WebhookDeliveriesDocument, { id: String(id), status: 'failed' }, as(ws));
    expect(none.body.data!.webhookDeliveries).toEqual({ pageCount: 0, data: [] });

    expect((await gql(t, RetryWebhookDeliveryDocument, { id: String(id), deliveryId: String(delivery) }, as(ws))).body.data).toEqual({ retryWebhookDelivery: { success: true } });
    expect((await gql(t, RecoverWebhookDocument, { id: String(id), since: '2020-01-01T00:00:00Z' }, as(ws))).body.data).toEqual({ recoverWebhook: { retried: 0 } });

    expect((await gql(t, DeleteWebhookDocument, { id: String(id) }, as(other))).body.errors?.[0]?.extensions.code).toBe('notFound');
    expect((await gql(t, DeleteWebhookDocument, { id: String(id) }, as(ws))).body.data).toEqual({ deleteWebhook: { success: true } });
    expect((await t.request('GET', `/v1/webhooks/${id}`, as(ws))).status).toBe(404);
  });

  it('registers external webhooks through the same URL guard', async () => {
    const ok = await gql(t, CreateExternalWebhookDocument, { input: { url: 'https://hooks.example.com/flows/order', event: 'order_placed', provider: 'n8n' } }, as(ws));
    expect(ok.body.data!.createExternalWebhook).toMatchObject({ url: 'https://hooks.example.com/flows/order', event: 'order_placed', provider: 'n8n' });
    const metadata = await gql(t, CreateExternalWebhookDocument, { input: { url: 'http://169.254.169.254/latest', event: 'e', provider: 'n8n' } }, as(ws));
    expect(metadata.body.errors?.[0]?.extensions.data.issues).toEqual([{ message: "url's host 169.254.169.254 is not a public address", path: ['input', 'url'] }]);
  });
});
