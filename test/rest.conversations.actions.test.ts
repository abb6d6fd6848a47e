import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { conversationBody, knownRows, minutesAfterT0, type KnownConversation, type KnownInbox, type KnownTeam, type KnownUser } from './support/conversation-bodies.js';
import { unlimited } from './support/endpoints.js';
import { T0 } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { forbidden, invalidRequestData, isoNow, notFound, validationError } from './support/rest.js';

/** GET /v1/conversations/{id} and the actions on one conversation. */
describe('conversation actions', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  let k: ReturnType<typeof knownRows>;
  let ann: KnownUser;
  let bob: KnownUser;
  let sales: KnownTeam;
  let web: KnownInbox;
  let contact: number;
  let foreign: { conversation: number; user: number; team: number };

  const post = (id: number | string, verb: string, body?: unknown, token = ws.developerToken) =>
    api.request('POST', `/v1/conversations/${id}/${verb}`, { token, ...(body === undefined ? {} : { body }) });
  const get = (id: number | string, token = ws.developerToken) => api.request('GET', `/v1/conversations/${id}`, { token });
  const body = (c: KnownConversation, changes: Partial<KnownConversation> = {}) => conversationBody(ws.id, { ...c, ...changes });
  /** A fresh conversation, assigned to ann and sales in the web inbox unless told otherwise. */
  const fresh = (c: Partial<KnownConversation> = {}) => k.conversation({ contactId: contact, inbox: web, user: ann, team: sales, ...c });
  const actions = ['archive', 'unarchive', 'enable-bot', 'disable-bot', 'read', 'unread', 'follow', 'unfollow', 'assign'];

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    api = await contractClient(t);
    ws = await t.workspace({ name: 'Desk' });
    k = knownRows(t, ws.id);
    ann = await k.user('Ann Agent', 'ann@company.example');
    bob = await k.user('Bob Agent', 'bob@company.example');
    sales = await k.team('Sales');
    web = await k.inbox('Web');
    contact = await k.f.contact({ email: 'talk@example.com' });
    const other = await t.workspace({ name: 'Other' });
    const o = knownRows(t, other.id);
    foreign = {
      conversation: (await o.conversation({ contactId: await o.f.contact({ email: 'them@example.com' }) })).id,
      user: (await o.user('Eve', 'eve@other.example')).id,
      team: (await o.team('Their team')).id,
    };
  });
  afterAll(() => t.close());

  it('GET answers the conversation with its inbox, assignee and team', async () => {
    const c = await fresh({ botEnabled: false, botResumeAt: minutesAfterT0(90), agentLastReadAt: minutesAfterT0(5), lastActivityAt: minutesAfterT0(7) });
    const res = await get(c.id, ws.userToken);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(body(c));
    const bare = await k.conversation({ contactId: contact });
    expect((await get(bare.id)).body).toEqual(body(bare));
  });

  it('archive sets archivedAt (an archived one keeps its first time), unarchive clears it; updatedAt moves', async () => {
    const c = await fresh();
    const archived = await post(c.id, 'archive');
    expect(archived.status).toBe(200);
    expect(archived.body).toEqual(body(c, { archivedAt: isoNow(), updatedAt: isoNow() }));
    expect(archived.body.updatedAt).toBe(archived.body.archivedAt);
    const again = await post(c.id, 'archive', {});
    expect(again.body).toEqual(body(c, { archivedAt: archived.body.archivedAt, updatedAt: isoNow() }));
    const earlier = await fresh({ archivedAt: minutesAfterT0(3) });
    expect((await post(earlier.id, 'archive')).body).toEqual(body(earlier, { updatedAt: isoNow() }));

    const unarchived = await post(c.id, 'unarchive');
    expect(unarchived.status).toBe(200);
    expect(unarchived.body).toEqual(body(c, { archivedAt: null, updatedAt: isoNow() }));
    expect((await get(c.id)).body).toEqual(unarchived.body);
  });

  it('read sets agentLastReadAt to now, unread clears it', async () => {
    const c = await fresh();
    const read = await post(c.id, 'read');
    expect(read.status).toBe(200);
    expect(read.body).toEqual(body(c, { agentLastReadAt: isoNow(), updatedAt: isoNow() }));
    expect(read.body.agentLastReadAt).toBe(read.body.updatedAt);
    const unread = await post(c.id, 'unread', {});
    expect(unread.body).toEqual(body(c, { agentLastReadAt: null, updatedAt: isoNow() }));
  });

  it('disable-bot switches the bot off until resumeAt (UTC) or for good; enable-bot switches it on and clears resumeAt', async () => {
    const c = await fresh();
    const off = await post(c.id, 'disable-bot', { resumeAt: '2099-06-01T12:00:00+02:00' });
    expect(off.status).toBe(200);
    expect(off.body).toEqual(body(c, { botEnabled: false, botResumeAt: '2099-06-01T10:00:00.000Z', updatedAt: isoNow() }));
    const on = await post(c.id, 'enable-bot');
    expect(on.body).toEqual(body(c, { botEnabled: true, botResumeAt: null, updatedAt: isoNow() }));
    for (const sent of [undefined, {}, { resumeAt: null }]) {
      await post(c.id, 'disable-bot', { resumeAt: '2099-01-01T00:00:00.000Z' });
      const res = await post(c.id, 'disable-bot', sent);
      expect(res.status, JSON.stringify(sent)).toBe(200);
      expect(res.body).toEqual(body(c, { botEnabled: false, botResumeAt: null, updatedAt: isoNow() }));
    }
  });

  it('disable-bot validates resumeAt: an ISO date-time in the future', async () => {
    const c = await fresh();
    const cases: [unknown, string][] = [
      [{ resumeAt: '2020-01-01T00:00:00.000Z' }, 'resumeAt must be in the future'],
      [{ resumeAt: 'tomorrow' }, 'Invalid ISO datetime'],
      [{ resumeAt: 1893456000000 }, 'Invalid input: expected string, received number'],
    ];
    for (const [sent, message] of cases) {
      const res = await post(c.id, 'disable-bot', sent);
      expect(res.status, JSON.stringify(sent)).toBe(422);
      expect(res.body).toEqual(invalidRequestData([{ message, path: ['body', 'resumeAt'] }]));
    }
    expect((await post(c.id, 'disable-bot', { until: 'later' })).body).toEqual(invalidRequestData([{ message: 'Unrecognized key: "until"', path: ['body', 'until'] }]));
    expect((await get(c.id)).body).toEqual(body(c));
  });

  it('assign sets, clears (null) or keeps (left out) the assignee and the team', async () => {
    const c = await fresh();
    const both = await post(c.id, 'assign', { userId: String(bob.id), inboxTeamId: null });
    expect(both.status).toBe(200);
    expect(both.body).toEqual(body(c, { user: bob, team: null, updatedAt: isoNow() }));
    const teamOnly = await post(c.id, 'assign', { inboxTeamId: String(sales.id) });
    expect(teamOnly.body).toEqual(body(c, { user: bob, team: sales, updatedAt: isoNow() }));
    const cleared = await post(c.id, 'assign', { userId: null });
    expect(cleared.body).toEqual(body(c, { user: null, team: sales, updatedAt: isoNow() }));
    expect((await get(c.id)).body).toEqual(cleared.body);
  });

  it("assign refuses another workspace's (or no) user or team: 422 validation naming it, nothing changed", async () => {
    const c = await fresh();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ userId: String(foreign.user) }, 'userId', String(foreign.user)],
      [{ userId: '99999999999', inboxTeamId: null }, 'userId', '99999999999'],
      [{ userId: String(bob.id), inboxTeamId: String(foreign.team) }, 'inboxTeamId', String(foreign.team)],
    ];
    for (const [sent, field, id] of cases) {
      const res = await post(c.id, 'assign', sent);
      expect(res.status, JSON.stringify(sent)).toBe(422);
      expect(res.body).toEqual(validationError({ field, reason: 'notFound', ids: [id] }));
    }
    expect((await get(c.id)).body).toEqual(body(c));
  });

  it('assign validates its body: at least one field, digit ids or null, nothing else', async () => {
    const c = await fresh();
    const cases: [unknown, { message: string; path: (string | number)[] }[]][] = [
      [{}, [{ message: 'Provide at least one of userId or inboxTeamId', path: ['body'] }]],
      [undefined, [{ message: 'Required', path: ['body'] }]],
      [{ userId: 5 }, [{ message: 'Invalid input: expected string, received number', path: ['body', 'userId'] }]],
      [{ inboxTeamId: 'sales' }, [{ message: 'must be a digit string', path: ['body', 'inboxTeamId'] }]],
      [{ userId: null, teamId: '1' }, [{ message: 'Unrecognized key: "teamId"', path: ['body', 'teamId'] }]],
    ];
    for (const [sent, issues] of cases) {
      const res = await post(c.id, 'assign', sent);
      expect(res.status, JSON.stringify(sent)).toBe(422);
      expect(res.body).toEqual(invalidRequestData(issues));
    }
  });

  it('follow answers {success: true} like unfollow, and sets followed', async () => {
    const c = await fresh({ followed: false });
    for (let i = 0; i < 2; i++) {
      const res = await post(c.id, 'follow', i ? {} : undefined);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
      expect((await get(c.id)).body).toEqual(body(c, { followed: true, updatedAt: isoNow() }));
    }
  });

  it('the body-less actions take no body, {} or an empty body; any field is 422', async () => {
    const c = await fresh();
    for (const verb of ['archive', 'unarchive', 'enable-bot', 'read', 'unread', 'follow']) {
      expect((await post(c.id, verb, '')).status, verb).toBe(200);
      const res = await post(c.id, verb, { now: true });
      expect(res.status, verb).toBe(422);
      expect(res.body).toEqual(invalidRequestData([{ message: 'Unrecognized key: "now"', path: ['body', 'now'] }]));
    }
  });

  it("is 404 for an unknown id or another workspace's conversation, which stays as it was", async () => {
    const assign = { userId: String(ann.id) };
    for (const id of [foreign.conversation, 987654, '99999999999999999999']) {
      expect((await get(id)).body).toEqual(notFound('Conversation'));
      for (const verb of actions) {
        const res = await post(id, verb, verb === 'assign' ? assign : undefined);
        expect(res.status, `${verb} ${id}`).toBe(404);
        expect(res.body).toEqual(notFound('Conversation'));
      }
    }
    // The 404 comes before the body's references are checked.
    expect((await post(foreign.conversation, 'assign', { userId: String(foreign.user) })).body).toEqual(notFound('Conversation'));
    const row = await t.db.selectFrom('conversations').selectAll().where('id', '=', foreign.conversation).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ archived_at: null, agent_last_read_at: null, assigned_user_id: null, updated_at: T0 });
    expect((await get('first')).body).toEqual(invalidRequestData([{ message: 'must be a digit string', path: ['params', 'id'] }]));
  });

  it('needs a full token with the conversations scope, and a live trial', async () => {
    const c = await fresh();
    const readOnly = await t.token(ws.id, { kind: 'developer', readOnly: true });
    const contactsOnly = await t.token(ws.id, { kind: 'developer', scopes: ['contacts'] });
    for (const verb of actions) {
      const sent = verb === 'assign' ? { userId: null } : undefined;
      expect((await post(c.id, verb, sent, readOnly)).body, verb).toEqual(forbidden({ reason: 'readOnlyToken' }));
      expect((await post(c.id, verb, sent, contactsOnly)).body, verb).toEqual(forbidden({ reason: 'missingScope', scope: 'conversations' }));
    }
    expect((await get(c.id, contactsOnly)).body).toEqual(forbidden({ reason: 'missingScope', scope: 'conversations' }));
    expect((await get(c.id, readOnly)).status).toBe(200);
    const expired = await t.workspace({ name: 'Expired', trialEndsAt: '2026-01-01T00:00:00.000Z' });
    const theirs = await knownRows(t, expired.id).conversation({ contactId: await knownRows(t, expired.id).f.contact({ email: 'x@example.com' }) });
    expect((await post(theirs.id, 'archive', undefined, expired.developerToken)).body.code).toBe('trialExpired');
    expect((await get(c.id)).body).toEqual(body(c));
  });
});
