import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngine } from './support/engine.js';
import { createEngineTestApp, type EngineTestApp } from './support/engine-app.js';
import { fixtures } from './support/fixtures.js';
import type { TestWorkspace } from './support/harness.js';

/**
 * POST /v1/contacts/{identifier}/flows, the automation tool's "Send Flow": 204 at once, then the
 * flow's messages in order and its actions, from a job; the hourly limit; Idempotency-Key; the
 * custom events a flow fires reaching the external webhooks registered for them.
 */
describe(`sending a flow to a contact (${testEngine})`, () => {
  let t: EngineTestApp;
  let ws: TestWorkspace;
  let f: ReturnType<typeof fixtures>;
  let inbox: number;
  let receiver: Server;
  const received: { event: string; contact_id: string; flow_id: string }[] = [];

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push(JSON.parse(body));
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const host = `127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    t = await createEngineTestApp({ OUTBOUND_ALLOWED_HOSTS: host });
    ws = await t.workspace({ name: 'Flows' });
    f = fixtures(t.db, ws.id);
    inbox = await f.inbox('Page', 'net');
    const register = await t.request('POST', '/v1/external-webhooks', { token: ws.developerToken, body: { url: `http://${host}/flow-data`, event: 'spring_sale_clicked', provider: 'automation-tool' } });
    expect(register.status).toBe(201);
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => receiver.close(resolve));
  });

  const send = (identifier: string, body: unknown, headers: Record<string, string> = {}) => t.request('POST', `/v1/contacts/${identifier}/flows`, { token: ws.developerToken, body, headers });

  async function reachable(firstName: string) {
    const contact = await f.contact({ firstName, email: `${firstName.toLowerCase()}-flow@example.com` });
    const contactInbox = await f.contactInbox(contact, inbox, 'net');
    await t.db.updateTable('contact_inboxes').set({ source_id: `psid-${contact}` }).where('id', '=', contactInbox).execute();
    const conversation = await f.conversation({ contactId: contact, inboxId: inbox });
    await t.db.updateTable('conversations').set({ contact_replied_at: new Date(Date.now() - 60_000).toISOString() }).where('id', '=', conversation).execute();
    return contact;
  }

  const sent = async (contact: number) =>
    (await t.db.selectFrom('outbox').select('payload').where('contact_id', '=', contact).where('action', '=', 'message').orderBy('id').execute()).map((r) => JSON.parse(r.payload as string));

  it("answers the connector's exact call with 204, then sends the messages in order and runs the actions", async () => {
    const tag = await f.tag('spring');
    const flow = await f.flow('Spring sale', [
      { type: 'text', text: 'Hi {{first_name}}!' },
      { type: 'image', url: 'https://cdn.example.com/sale.png' },
      { type: 'quickReplies', text: 'Interested?', replies: [{ title: 'Yes', payload: 'YES' }, { title: 'No' }] },
      { type: 'addTag', tagId: String(tag) },
      { type: 'customEvent', name: 'spring_sale_clicked' },
    ]);
    const contact = await reachable('Ada');
    const res = await send(`id:${contact}`, { flowId: String(flow), inboxId: String(inbox) });
    expect([res.status, res.text]).toEqual([204, '']);
    await t.settle();
    expect(await sent(contact)).toEqual([
      { type: 'text', text: 'Hi Ada!' },
      { type: 'image', url: 'https://cdn.example.com/sale.png' },
      { type: 'quickReplies', text: 'Interested?', replies: [{ title: 'Yes', payload: 'YES' }, { title: 'No', payload: 'No' }] },
    ]);
    const tags = await t.request('GET', `/v1/contacts/id:${contact}/tags`, { token: ws.developerToken });
    expect(tags.body.data.map((x: { name: string }) => x.name)).toEqual(['spring']);
    expect(received).toEqual([{ event: 'spring_sale_clicked', contact_id: String(contact), flow_id: String(flow), flow_name: 'Spring sale', timestamp: expect.any(String) }]);
  });

  it('takes the ids as numbers too, and without inboxId the conversation the contact wrote in last', async () => {
    const flow = await f.flow('Numbers', [{ type: 'text', text: 'By number' }]);
    const contact = await reachable('Bob');
    expect((await send(`id:${contact}`, { flowId: flow })).status).toBe(204);
    await t.settle();
    expect(await sent(contact)).toEqual([{ type: 'text', text: 'By number' }]);
  });

  it('404s: no such contact, flow, or conversation in that inbox; 422 for a bad body', async () => {
    const flow = await f.flow('Nowhere', [{ type: 'text', text: 'x' }]);
    const contact = await reachable('Cleo');
    const otherInbox = await f.inbox('Other page', 'net');
    const notFound = (resource: string) => expect.objectContaining({ code: 'notFound', status: 404, data: { resource } });
    expect((await send('id:999999', { flowId: String(flow) })).body).toEqual(notFound('Contact'));
    expect((await send(`id:${contact}`, { flowId: '999999' })).body).toEqual(notFound('Flow'));
    expect((await send(`id:${contact}`, { flowId: String(flow), inboxId: String(otherInbox) })).body).toEqual(notFound('Conversation'));
    expect((await send(`id:${contact}`, { flowId: 'welcome' })).status).toBe(422);
    expect((await send(`id:${contact}`, { flowId: String(flow), extra: 1 })).status).toBe(422);
  });

  it('replays an Idempotency-Key retry without sending twice', async () => {
    const flow = await f.flow('Once', [{ type: 'text', text: 'Only once' }]);
    const contact = await reachable('Dana');
    const headers = { 'idempotency-key': `send-flow-${contact}` };
    const first = await send(`id:${contact}`, { flowId: String(flow) }, headers);
    const retry = await send(`id:${contact}`, { flowId: String(flow) }, headers);
    expect([first.status, retry.status, retry.headers.get('idempotent-replayed')]).toEqual([204, 204, 'true']);
    await t.settle();
    expect(await sent(contact)).toEqual([{ type: 'text', text: 'Only once' }]);
  });

  it('answers 429 past 100 sends to one contact in an hour', async () => {
    const flow = await f.flow('Chatty', [{ type: 'customEvent', name: 'not_registered' }]);
    const contact = await reachable('Eve');
    const conversation = (await t.db.selectFrom('conversations').select('id').where('contact_id', '=', contact).executeTakeFirstOrThrow()).id;
    const at = new Date(Date.now() - 30 * 60_000).toISOString();
    await t.db
      .insertInto('flow_runs')
      .values(Array.from({ length: 100 }, () => ({ workspace_id: ws.id, flow_id: flow, contact_id: contact, conversation_id: conversation, source: 'api', status: 'sent', reason: null, created_at: at, updated_at: at })))
      .execute();
    const limited = await send(`id:${contact}`, { flowId: String(flow) });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'tooManyRequests', data: { budget: 'flowSends', limit: 100 } });
    expect(limited.body.data.retryAfterSeconds).toBeGreaterThan(29 * 60);
    expect(limited.headers.get('retry-after')).toBe(String(limited.body.data.retryAfterSeconds));
    // Another contact is not limited.
    expect((await send(`id:${await reachable('Finn')}`, { flowId: String(flow) })).status).toBe(204);
  });

  it('another app holding the thread: the run sends nothing and says why', async () => {
    const flow = await f.flow('Held', [{ type: 'text', text: 'Held back' }]);
    const contact = await reachable('Gus');
    const ci = (await t.db.selectFrom('contact_inboxes').select('id').where('contact_id', '=', contact).executeTakeFirstOrThrow()).id;
    const conversation = (await t.db.selectFrom('conversations').select('id').where('contact_id', '=', contact).executeTakeFirstOrThrow()).id;
    expect((await t.request('POST', `/v1/conversations/${conversation}/thread-control`, { token: ws.developerToken, body: { contactInboxId: String(ci), action: 'pass' } })).status).toBe(200);
    expect((await send(`id:${contact}`, { flowId: String(flow) })).status).toBe(204);
    await t.settle();
    expect(await sent(contact)).toEqual([]);
    const run = await t.db.selectFrom('flow_runs').select(['status', 'reason']).where('contact_id', '=', contact).executeTakeFirstOrThrow();
    expect(run).toEqual({ status: 'failed', reason: 'threadNotOwned' });
  });
});
