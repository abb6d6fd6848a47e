import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { fixtures, photoCommentBody } from './support/fixtures.js';
import { unlimited } from './support/endpoints.js';

/**
 * Every row belongs to one workspace and a token acts only inside its own. With workspace A's
 * tokens, workspace B's records are absent from every list and their ids answer exactly as ids
 * that never existed (404, same body), and A's writes never touch B.
 */
interface Seeded {
  ws: TestWorkspace;
  contactId: number;
  email: string;
  phone: string;
  netCommentId: number;
  leadAdId: number;
  conversationId: number;
}

async function seed(t: TestApp, name: string): Promise<Seeded> {
  const ws = await t.workspace({ name });
  const f = fixtures(t.db, ws.id);
  const lower = name.toLowerCase();
  const email = `shared-${lower}@example.com`;
  const phone = name === 'Alpha' ? '+14155550001' : '+14155550002';
  const contactId = await f.contact({ email, phone, firstName: name });
  const field = await f.customField(`${name} plan`);
  await f.fieldValue(contactId, field, `${name} gold`);
  await f.subscribe(contactId, await f.sequence(`${name} welcome`));
  await f.tag(`${name} VIP`);
  await f.dynamicImage(`${name} banner`);
  await f.errorLog(`${name} send failed`);
  const netCommentId = await f.commentAutomation('net', `${name} FAQ`);
  const leadAdId = await f.leadAd(`${name} form`);
  const conversationId = await f.conversation({ contactId });
  return { ws, contactId, email, phone, netCommentId, leadAdId, conversationId };
}

describe('a token of workspace A gets nothing of workspace B', () => {
  let t: TestApp;
  let a: Seeded;
  let b: Seeded;
  beforeAll(async () => {
    t = await createTestApp(unlimited);
    a = await seed(t, 'Alpha');
    b = await seed(t, 'Bravo');
  });
  afterAll(() => t.close());

  const tokensOfA = () => [
    ['workspace API token', a.ws.developerToken, false],
    ['workspace API token in ?token=', a.ws.developerToken, true],
    ['user access token', a.ws.userToken, false],
  ] as const;
  const get = (path: string, token: string, tokenInQuery = false) => t.request('GET', path, { token, tokenInQuery });

  it('lists only its own tags, dynamic images and error logs', async () => {
    for (const [, token, inQuery] of tokensOfA()) {
      expect((await get('/v1/tags', token, inQuery)).body.data.map((x: { name: string }) => x.name)).toEqual(['Alpha VIP']);
      expect((await get('/v1/dynamic-images', token, inQuery)).body.data.map((x: { name: string }) => x.name)).toEqual(['Alpha banner']);
      const logs = (await get('/v1/error-logs', token, inQuery)).body;
      expect(logs.data.map((x: { detail: string }) => x.detail)).toEqual(['Alpha send failed']);
      expect(logs.pageCount).toBe(1);
      // Searching for B's words finds nothing either.
      expect((await get('/v1/error-logs?keyword=Bravo', token, inQuery)).body).toEqual({ data: [], pageCount: 0 });
      expect((await get('/v1/dynamic-images?name=Bravo', token, inQuery)).body).toEqual({ data: [], pageCount: 0 });
    }
  });

  it('reads its own workspace record from GET /v1/workspaces', async () => {
    for (const inQuery of [false, true]) {
      const res = await get('/v1/workspaces', a.ws.developerToken, inQuery);
      expect([res.status, res.body.id, res.body.name]).toEqual([200, String(a.ws.id), 'Alpha']);
    }
  });

  it("answers B's ids, emails and phone numbers exactly as ids that never existed", async () => {
    const never = { id: 2_000_000_000, email: 'nobody@example.com', phone: '+19999999999' };
    const probes: [string, string][] = [
      [`/v1/net-comments/${b.netCommentId}`, `/v1/net-comments/${never.id}`],
      [`/v1/contacts/${b.contactId}/custom-fields`, `/v1/contacts/${never.id}/custom-fields`],
      [`/v1/contacts/${encodeURIComponent(`email:${b.email}`)}/custom-fields`, `/v1/contacts/${encodeURIComponent(`email:${never.email}`)}/custom-fields`],
      [`/v1/contacts/${encodeURIComponent(b.email)}/sequences`, `/v1/contacts/${encodeURIComponent(never.email)}/sequences`],
      [`/v1/contacts/${encodeURIComponent(b.phone)}/sequences`, `/v1/contacts/${encodeURIComponent(never.phone)}/sequences`],
      [`/v1/contacts/${b.contactId}/sequences`, `/v1/contacts/${never.id}/sequences`],
    ];
    for (const [, token, inQuery] of tokensOfA()) {
      for (const [ofB, missing] of probes) {
        const res = await get(ofB, token, inQuery);
        const control = await get(missing, token, inQuery);
        expect(res.status, ofB).toBe(404);
        expect(res.body, ofB).toEqual(control.body);
        expect(res.body).toMatchObject({ defined: true, code: 'notFound', status: 404 });
      }
    }
    // A's own records are found by the same paths.
    expect((await get(`/v1/net-comments/${a.netCommentId}`, a.ws.developerToken)).status).toBe(200);
    expect((await get(`/v1/contacts/${encodeURIComponent(a.email)}/custom-fields`, a.ws.developerToken)).body.data.map((v: { value: string }) => v.value)).toEqual([
      'Alpha gold',
    ]);
  });

  it("cannot delete B's lead-ad automation or unfollow B's conversation", async () => {
    for (const [, token, inQuery] of tokensOfA()) {
      const del = await t.request('DELETE', `/v1/net-lead-ads/${b.leadAdId}`, { token, tokenInQuery: inQuery });
      const unfollow = await t.request('POST', `/v1/conversations/${b.conversationId}/unfollow`, { token, tokenInQuery: inQuery });
      const delControl = await t.request('DELETE', '/v1/net-lead-ads/2000000000', { token, tokenInQuery: inQuery });
      const unfollowControl = await t.request('POST', '/v1/conversations/2000000000/unfollow', { token, tokenInQuery: inQuery });
      expect([del.status, unfollow.status]).toEqual([404, 404]);
      expect(del.body).toEqual(delControl.body);
      expect(unfollow.body).toEqual(unfollowControl.body);
    }
    const leadAd = await t.db.selectFrom('lead_ad_automations').select(['workspace_id', 'name']).where('id', '=', b.leadAdId).executeTakeFirst();
    expect(leadAd).toEqual({ workspace_id: b.ws.id, name: 'Bravo form' });
    const conversation = await t.db.selectFrom('conversations').select(['followed']).where('id', '=', b.conversationId).executeTakeFirstOrThrow();
    expect(Number(conversation.followed)).toBe(1);
  });

  it('creates contacts and automations in A only, even with B\'s email address', async () => {
    const countsOfB = async () => ({
      contacts: (await t.db.selectFrom('contacts').select('id').where('workspace_id', '=', b.ws.id).execute()).length,
      automations: (await t.db.selectFrom('comment_automations').select('id').where('workspace_id', '=', b.ws.id).execute()).length,
    });
    const before = await countsOfB();
    const contact = await t.request('POST', '/v1/contacts', { token: a.ws.developerToken, body: { email: b.email, firstName: 'Copy' } });
    expect(contact.status).toBe(200);
    expect(contact.body.workspaceId).toBe(String(a.ws.id));
    const automation = await t.request('POST', '/v1/photo-comments', { token: a.ws.userToken, body: photoCommentBody() });
    expect(automation.status).toBe(201);
    const stored = await t.db.selectFrom('comment_automations').select('workspace_id').where('id', '=', Number(automation.body.id)).executeTakeFirstOrThrow();
    expect(stored.workspace_id).toBe(a.ws.id);
    expect(await countsOfB()).toEqual(before);
    // B's contact with that email is untouched.
    const original = await t.db.selectFrom('contacts').select(['first_name', 'workspace_id']).where('id', '=', b.contactId).executeTakeFirstOrThrow();
    expect(original).toEqual({ first_name: 'Bravo', workspace_id: b.ws.id });
  });
});
