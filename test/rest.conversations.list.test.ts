import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { conversationBody, knownRows, minutesAfterT0, type KnownConversation } from './support/conversation-bodies.js';
import { unlimited } from './support/endpoints.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { forbidden, invalidRequestData } from './support/rest.js';

/** GET /v1/conversations: the order, the cursors, every filter, validation and isolation. */
describe('GET /v1/conversations', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  let c: Record<'grace' | 'edsger' | 'alan' | 'ada' | 'adaOld', KnownConversation>;
  let ids: { ann: number; bob: number; sales: number; support: number; web: number; mail: number };
  let foreign: { user: number; team: number; inbox: number };

  const list = (query = '', token = ws.developerToken) => api.request('GET', `/v1/conversations${query ? `?${query}` : ''}`, { token });
  const body = (k: KnownConversation) => conversationBody(ws.id, k);
  const idsOf = (res: { body: { data: { id: string }[] } }) => res.body.data.map((x) => x.id);
  const named = (...keys: (keyof typeof c)[]) => keys.map((k) => String(c[k].id));

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    api = await contractClient(t);
    ws = await t.workspace({ name: 'Inbox' });
    const k = knownRows(t, ws.id);
    const ann = await k.user('Ann Agent', 'ann@company.example');
    const bob = await k.user('Bob Agent', 'bob@company.example');
    const sales = await k.team('Sales');
    const support = await k.team('Support');
    const web = await k.inbox('Web');
    const mail = await k.inbox('Mail', 'email');
    const contact = {
      ada: await k.f.contact({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '+15550001' }),
      grace: await k.f.contact({ firstName: 'Grace', lastName: 'Hopper', email: 'grace@navy.example', phone: '+15550002' }),
      alan: await k.f.contact({ firstName: 'Alan', lastName: 'Turing', phone: '+447911123456' }),
      edsger: await k.f.contact({ email: 'edsger@example.com' }),
    };
    // Inserted out of list order; alan and edsger share an activity time (ties: the newer id first).
    c = {
      ada: await k.conversation({ contactId: contact.ada, inbox: web, user: ann, team: sales, lastActivityAt: minutesAfterT0(10) }),
      grace: await k.conversation({ contactId: contact.grace, inbox: mail, user: bob, followed: false, lastActivityAt: minutesAfterT0(30) }),
      alan: await k.conversation({
        contactId: contact.alan,
        inbox: web,
        team: support,
        archivedAt: minutesAfterT0(5),
        botEnabled: false,
        botResumeAt: minutesAfterT0(600),
        lastActivityAt: minutesAfterT0(20),
      }),
      edsger: await k.conversation({ contactId: contact.edsger, agentLastReadAt: minutesAfterT0(20), lastActivityAt: minutesAfterT0(20) }),
      adaOld: await k.conversation({ contactId: contact.ada, inbox: mail, user: ann, team: support, createdAt: minutesAfterT0(-60), lastActivityAt: minutesAfterT0(0) }),
    };
    ids = { ann: ann.id, bob: bob.id, sales: sales.id, support: support.id, web: web.id, mail: mail.id };

    const other = await t.workspace({ name: 'Other' });
    const o = knownRows(t, other.id);
    const theirUser = await o.user('Eve Agent', 'eve@other.example');
    const theirTeam = await o.team('Their team');
    const theirInbox = await o.inbox('Their inbox');
    await o.conversation({ contactId: await o.f.contact({ firstName: 'Ada', email: 'ada@other.example' }), inbox: theirInbox, user: theirUser, team: theirTeam, lastActivityAt: minutesAfterT0(99) });
    foreign = { user: theirUser.id, team: theirTeam.id, inbox: theirInbox.id };
  });
  afterAll(() => t.close());

  it("answers the workspace's conversations by last activity (ties: newer id first), each with its assignee, team and inbox", async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [body(c.grace), body(c.edsger), body(c.alan), body(c.ada), body(c.adaOld)],
      nextCursor: null,
      prevCursor: null,
    });
    expect((await list('', ws.userToken)).body).toEqual(res.body);
  });

  it('pages with nextCursor to the end and back with prevCursor; both are null at the ends', async () => {
    const first = await list('limit=2');
    expect(first.body).toEqual({ data: [body(c.grace), body(c.edsger)], nextCursor: expect.any(String), prevCursor: null });
    const second = await list(`limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body).toEqual({ data: [body(c.alan), body(c.ada)], nextCursor: expect.any(String), prevCursor: expect.any(String) });
    const third = await list(`limit=2&cursor=${second.body.nextCursor}`);
    expect(third.body).toEqual({ data: [body(c.adaOld)], nextCursor: null, prevCursor: expect.any(String) });

    const back = await list(`limit=2&cursor=${third.body.prevCursor}`);
    expect(back.body).toEqual({ data: [body(c.alan), body(c.ada)], nextCursor: expect.any(String), prevCursor: expect.any(String) });
    const start = await list(`limit=2&cursor=${back.body.prevCursor}`);
    expect(start.body).toEqual({ data: [body(c.grace), body(c.edsger)], nextCursor: expect.any(String), prevCursor: null });
    // The limit may change between pages (it is not a filter).
    expect(idsOf(await list(`limit=50&cursor=${first.body.nextCursor}`))).toEqual(named('alan', 'ada', 'adaOld'));
  });

  it('a page exactly at the end has no nextCursor', async () => {
    const first = await list('limit=3');
    const rest = await list(`limit=2&cursor=${first.body.nextCursor}`);
    expect(rest.body).toEqual({ data: [body(c.ada), body(c.adaOld)], nextCursor: null, prevCursor: expect.any(String) });
  });

  it('filters by followed, archived, botEnabled, assignee, team, inbox and keyword', async () => {
    const cases: [string, (keyof typeof c)[]][] = [
      ['followed=true', ['edsger', 'alan', 'ada', 'adaOld']],
      ['followed=false', ['grace']],
      ['archived=true', ['alan']],
      ['archived=false', ['grace', 'edsger', 'ada', 'adaOld']],
      ['botEnabled=false', ['alan']],
      ['botEnabled=true', ['grace', 'edsger', 'ada', 'adaOld']],
      [`assignedUserId=${ids.ann}`, ['ada', 'adaOld']],
      [`assignedUserId=${ids.bob}`, ['grace']],
      ['assignedUserId=none', ['edsger', 'alan']],
      [`assignedInboxTeamId=${ids.support}`, ['alan', 'adaOld']],
      ['assignedInboxTeamId=none', ['grace', 'edsger']],
      [`inboxId=${ids.web}`, ['alan', 'ada']],
      [`inboxId=${ids.mail}`, ['grace', 'adaOld']],
      // keyword: first name, last name, full name, email, phone; case-insensitive; wildcards literal.
      ['keyword=LOVE', ['ada', 'adaOld']],
      ['keyword=ada%20lovelace', ['ada', 'adaOld']],
      ['keyword=navy.ex', ['grace']],
      ['keyword=%2B4479', ['alan']],
      ['keyword=tur', ['alan']],
      ['keyword=edsger', ['edsger']],
      ['keyword=ex', ['grace', 'edsger', 'ada', 'adaOld']],
      ['keyword=%25', []],
      ['keyword=_', []],
      ['keyword=zz', []],
      ['keyword=', ['grace', 'edsger', 'alan', 'ada', 'adaOld']],
      [`followed=true&inboxId=${ids.mail}`, ['adaOld']],
      [`archived=false&assignedUserId=none&keyword=example`, ['edsger']],
    ];
    for (const [query, expected] of cases) {
      const res = await list(query);
      expect(res.status, query).toBe(200);
      expect(res.body, query).toEqual({ data: expected.map((k) => body(c[k])), nextCursor: null, prevCursor: null });
    }
  });

  it('pages a filtered list with its own cursors', async () => {
    const first = await list('archived=false&limit=3');
    expect(idsOf(first)).toEqual(named('grace', 'edsger', 'ada'));
    const second = await list(`archived=false&limit=3&cursor=${first.body.nextCursor}`);
    expect(second.body).toEqual({ data: [body(c.adaOld)], nextCursor: null, prevCursor: expect.any(String) });
  });

  it('refuses a cursor used with other filters, or one that is not a cursor of this list', async () => {
    const first = await list('followed=true&limit=1');
    const cursor = first.body.nextCursor as string;
    for (const query of [`cursor=${cursor}`, `followed=false&cursor=${cursor}`, `followed=true&keyword=a&cursor=${cursor}`]) {
      const res = await list(query);
      expect(res.status, query).toBe(422);
      expect(res.body).toEqual(invalidRequestData([{ message: 'cursor was made with other filters: use the filters of the list it came from', path: ['query', 'cursor'] }]));
    }
    expect(idsOf(await list(`limit=1&followed=true&cursor=${cursor}`))).toEqual(named('alan'));

    const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString());
    const encode = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const bad = [
      'not a cursor',
      'abc',
      encode('next'),
      encode({ ...decoded, d: 'sideways' }),
      encode({ ...decoded, i: '7' }),
      encode({ ...decoded, a: 'yesterday' }),
      encode({ ...decoded, extra: 1 }),
      encode({ a: decoded.a, i: decoded.i, f: decoded.f }), // a GraphQL edge cursor: no direction
      cursor.slice(0, -3),
      'x'.repeat(501),
    ];
    for (const text of bad) {
      const res = await list(`followed=true&cursor=${encodeURIComponent(text)}`);
      expect(res.status, text).toBe(422);
      expect(res.body).toEqual(invalidRequestData([{ message: 'cursor is not a cursor of this list', path: ['query', 'cursor'] }]));
    }
  });

  it('validates limit, the boolean filters and the ids, and refuses unknown parameters', async () => {
    const cases: [string, { message: string; path: (string | number)[] }[]][] = [
      ['limit=0', [{ message: 'limit must be at least 1', path: ['query', 'limit'] }]],
      ['limit=51', [{ message: 'limit must be at most 50', path: ['query', 'limit'] }]],
      ['limit=1.5', [{ message: 'limit must be a whole number', path: ['query', 'limit'] }]],
      ['limit=ten', [{ message: 'limit must be a whole number', path: ['query', 'limit'] }]],
      ['followed=yes', [{ message: 'followed must be true or false', path: ['query', 'followed'] }]],
      ['archived=1', [{ message: 'archived must be true or false', path: ['query', 'archived'] }]],
      ['botEnabled=', [{ message: 'botEnabled must be true or false', path: ['query', 'botEnabled'] }]],
      ['assignedUserId=ann', [{ message: 'must be a digit string or "none"', path: ['query', 'assignedUserId'] }]],
      ['assignedInboxTeamId=null', [{ message: 'must be a digit string or "none"', path: ['query', 'assignedInboxTeamId'] }]],
      ['inboxId=none', [{ message: 'must be a digit string', path: ['query', 'inboxId'] }]],
      [`keyword=${'k'.repeat(256)}`, [{ message: 'keyword must be at most 255 characters', path: ['query', 'keyword'] }]],
      ['page=2', [{ message: 'Unrecognized key: "page"', path: ['query', 'page'] }]],
    ];
    for (const [query, issues] of cases) {
      const res = await list(query);
      expect(res.status, query).toBe(422);
      expect(res.body, query).toEqual(invalidRequestData(issues));
    }
  });

  it("refuses ids of another workspace's (or no) user, team or inbox: 422 at the parameter", async () => {
    const res = await list(`assignedUserId=${foreign.user}&assignedInboxTeamId=${foreign.team}&inboxId=${foreign.inbox}`);
    expect(res.status).toBe(422);
    expect(res.body).toEqual(
      invalidRequestData([
        { message: `No user with id ${foreign.user} in this workspace`, path: ['query', 'assignedUserId'] },
        { message: `No inbox team with id ${foreign.team} in this workspace`, path: ['query', 'assignedInboxTeamId'] },
        { message: `No inbox with id ${foreign.inbox} in this workspace`, path: ['query', 'inboxId'] },
      ]),
    );
    expect((await list('inboxId=99999999999')).body).toEqual(invalidRequestData([{ message: 'No inbox with id 99999999999 in this workspace', path: ['query', 'inboxId'] }]));
  });

  it('loads the assignees, teams and inboxes of a page in one statement each, whatever its size', async () => {
    const big = await t.workspace({ name: 'Big' });
    const b = knownRows(t, big.id);
    for (let i = 0; i < 30; i++) {
      // Every row its own assignee, team and inbox: the lookups get many keys at once.
      await b.conversation({
        contactId: await b.f.contact({ email: `p${i}@example.com` }),
        user: await b.user(`Agent ${i}`, `a${i}@company.example`),
        team: await b.team(`Team ${i}`),
        inbox: await b.inbox(`Inbox ${i}`),
        lastActivityAt: minutesAfterT0(i),
      });
    }
    const statements = async (query: string) => {
      const res = await list(query, big.developerToken);
      expect(res.status).toBe(200);
      expect(res.body.data.every((x: { assignedUser: unknown; assignedInboxTeam: unknown; inbox: unknown }) => x.assignedUser && x.assignedInboxTeam && x.inbox)).toBe(true);
      return Number(res.headers.get('x-db-statements'));
    };
    await statements('limit=1'); // the token's first lookup is cached from here on
    const first = await statements('limit=1');
    expect(await statements('limit=10')).toBe(first);
    expect(await statements('limit=30')).toBe(first);
    // The page, then its users, teams and inboxes.
    expect(first).toBe(4);
    const page = await list('limit=10', big.developerToken);
    const after = async (limit: number) => Number((await list(`limit=${limit}&cursor=${page.body.nextCursor}`, big.developerToken)).headers.get('x-db-statements'));
    // After a cursor: one more statement asks whether rows lie before the page.
    expect([await after(1), await after(20)]).toEqual([5, 5]);
  });

  it('is empty for a workspace without conversations', async () => {
    const empty = await t.workspace({ name: 'Empty' });
    expect((await list('', empty.developerToken)).body).toEqual({ data: [], nextCursor: null, prevCursor: null });
  });

  it('needs the conversations scope; read-only tokens may list', async () => {
    const contactsOnly = await t.token(ws.id, { kind: 'developer', scopes: ['contacts'] });
    const res = await list('', contactsOnly);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(forbidden({ reason: 'missingScope', scope: 'conversations' }));
    const readOnly = await t.token(ws.id, { kind: 'developer', readOnly: true, scopes: ['conversations'] });
    expect(idsOf(await list('', readOnly))).toEqual(named('grace', 'edsger', 'alan', 'ada', 'adaOld'));
  });
});
