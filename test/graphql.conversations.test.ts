import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ArchiveConversationDocument,
  AssignConversationDocument,
  ConversationDocument,
  ConversationPageDocument,
  ConversationsWithEverythingDocument,
  DisableConversationBotDocument,
  EnableConversationBotDocument,
  MarkConversationReadDocument,
  MarkConversationUnreadDocument,
  UnarchiveConversationDocument,
} from './graphql/generated/graphql.js';
import { conversationBody, knownRows, minutesAfterT0, type KnownConversation, type KnownTeam, type KnownUser } from './support/conversation-bodies.js';
import { envelopes, unlimited } from './support/endpoints.js';
import { fieldError, gql, invalidInput } from './support/graphql.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { isoNow } from './support/rest.js';

const globalId = (type: string, id: number) => Buffer.from(`${type}:${id}`).toString('base64');

/** Query.conversations (a Relay connection both ways, REST's filters), Query.conversation and the conversation mutations. */
describe('GraphQL conversations', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let token: { token: string };
  let k: ReturnType<typeof knownRows>;
  let c: Record<'grace' | 'edsger' | 'alan' | 'ada', KnownConversation>;
  let ann: KnownUser;
  let bob: KnownUser;
  let sales: KnownTeam;
  let emails: Record<number, string>;
  let foreign: { conversation: number; user: number; team: number; inbox: number };

  /** The GraphQL node of ConversationFields for a known conversation: REST's body, nested objects as selected. */
  const node = (known: KnownConversation, changes: Partial<KnownConversation> = {}) => {
    const { assignedUser, assignedInboxTeam, inbox, ...rest } = conversationBody(ws.id, { ...known, ...changes });
    return {
      ...rest,
      assignedUser: assignedUser && { id: assignedUser.id, name: assignedUser.name, email: assignedUser.email, emailVerified: true, image: null, isAnonymous: false },
      assignedInboxTeam: assignedInboxTeam && { id: assignedInboxTeam.id, name: assignedInboxTeam.name, workspaceId: assignedInboxTeam.workspaceId },
      inbox: inbox && { id: inbox.id, name: inbox.name, channel: inbox.channel, sourceId: inbox.sourceId, status: inbox.status },
      contact: { id: String(known.contactId), email: emails[known.contactId] },
    };
  };
  const page = (vars: Parameters<typeof gql<unknown, Record<string, unknown>>>[2] = {}) => gql(t, ConversationPageDocument, vars, token);
  const ids = (res: Awaited<ReturnType<typeof page>>) => res.body.data!.conversations.edges.map((e) => e.node.id);
  const named = (...keys: (keyof typeof c)[]) => keys.map((key) => String(c[key].id));

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    ws = await t.workspace({ name: 'Graph desk' });
    token = { token: ws.developerToken };
    k = knownRows(t, ws.id);
    ann = await k.user('Ann Agent', 'ann@company.example');
    bob = await k.user('Bob Agent', 'bob@company.example');
    sales = await k.team('Sales');
    const web = await k.inbox('Web');
    const contact = {
      ada: await k.f.contact({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' }),
      grace: await k.f.contact({ firstName: 'Grace', lastName: 'Hopper', email: 'grace@navy.example' }),
      alan: await k.f.contact({ firstName: 'Alan', lastName: 'Turing', email: 'alan@example.com' }),
      edsger: await k.f.contact({ email: 'edsger@example.com' }),
    };
    emails = { [contact.ada]: 'ada@example.com', [contact.grace]: 'grace@navy.example', [contact.alan]: 'alan@example.com', [contact.edsger]: 'edsger@example.com' };
    c = {
      ada: await k.conversation({ contactId: contact.ada, inbox: web, user: ann, team: sales, lastActivityAt: minutesAfterT0(10) }),
      grace: await k.conversation({ contactId: contact.grace, user: bob, followed: false, lastActivityAt: minutesAfterT0(30) }),
      alan: await k.conversation({ contactId: contact.alan, inbox: web, archivedAt: minutesAfterT0(5), botEnabled: false, lastActivityAt: minutesAfterT0(20) }),
      edsger: await k.conversation({ contactId: contact.edsger, lastActivityAt: minutesAfterT0(20) }),
    };
    const other = await t.workspace({ name: 'Other' });
    const o = knownRows(t, other.id);
    foreign = {
      conversation: (await o.conversation({ contactId: await o.f.contact({ email: 'them@example.com' }), lastActivityAt: minutesAfterT0(99) })).id,
      user: (await o.user('Eve', 'eve@other.example')).id,
      team: (await o.team('Their team')).id,
      inbox: (await o.inbox('Their inbox')).id,
    };
  });
  afterAll(() => t.close());

  it('lists the workspace\'s conversations by last activity (ties: newer id first) with every field, as REST does', async () => {
    const res = await gql(t, ConversationsWithEverythingDocument, { first: 10 }, token);
    expect(res.body).toEqual({ data: { conversations: { edges: [c.grace, c.edsger, c.alan, c.ada].map((x) => ({ node: node(x) })) } } });
    const rest = await t.request('GET', '/v1/conversations', token);
    expect(rest.body.data.map((x: { id: string }) => x.id)).toEqual(named('grace', 'edsger', 'alan', 'ada'));
  });

  it('pages forward with first/after and backward with last/before; pageInfo says what lies on each side', async () => {
    const first = await page({ first: 2 });
    const firstPage = first.body.data!.conversations;
    expect(firstPage).toEqual({
      edges: [
        { cursor: expect.any(String), node: { id: String(c.grace.id) } },
        { cursor: expect.any(String), node: { id: String(c.edsger.id) } },
      ],
      pageInfo: { hasNextPage: true, hasPreviousPage: false, startCursor: firstPage.edges[0].cursor, endCursor: firstPage.edges[1].cursor },
    });
    const second = (await page({ first: 2, after: firstPage.pageInfo.endCursor })).body.data!.conversations;
    expect(second.edges.map((e) => e.node.id)).toEqual(named('alan', 'ada'));
    expect(second.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: true, startCursor: second.edges[0].cursor, endCursor: second.edges[1].cursor });

    const back = (await page({ last: 2, before: second.pageInfo.startCursor })).body.data!.conversations;
    expect(back.edges.map((e) => e.node.id)).toEqual(named('grace', 'edsger'));
    expect(back.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const oldest = (await page({ last: 3 })).body.data!.conversations;
    expect(oldest.edges.map((e) => e.node.id)).toEqual(named('edsger', 'alan', 'ada'));
    expect(oldest.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    expect(ids(await page({ last: 1, before: oldest.pageInfo.startCursor }))).toEqual(named('grace'));
    expect(ids(await page({ first: 10, after: back.pageInfo.startCursor }))).toEqual(named('edsger', 'alan', 'ada'));
  });

  it('filters as REST does; ids may be plain or global, "none" is unassigned', async () => {
    const cases: [Record<string, unknown>, (keyof typeof c)[]][] = [
      [{ followed: false }, ['grace']],
      [{ archived: true }, ['alan']],
      [{ archived: false, botEnabled: true }, ['grace', 'edsger', 'ada']],
      [{ assignedUserId: String(ann.id) }, ['ada']],
      [{ assignedUserId: globalId('User', bob.id) }, ['grace']],
      [{ assignedUserId: 'none' }, ['edsger', 'alan']],
      [{ assignedInboxTeamId: globalId('InboxTeam', sales.id) }, ['ada']],
      [{ assignedInboxTeamId: 'none', inboxId: String(c.alan.inbox!.id) }, ['alan']],
      [{ keyword: 'HOPPER' }, ['grace']],
      [{ keyword: 'ada lovelace' }, ['ada']],
      [{ keyword: '' }, ['grace', 'edsger', 'alan', 'ada']],
    ];
    for (const [vars, expected] of cases) {
      const res = await page(vars);
      expect(res.body.errors, JSON.stringify(vars)).toBeUndefined();
      expect(ids(res), JSON.stringify(vars)).toEqual(named(...expected));
    }
  });

  it('refuses mixed directions, bad counts, cursors of other filters or of REST, and ids outside the workspace', async () => {
    const after = (await page({ first: 1, followed: true })).body.data!.conversations.pageInfo.endCursor!;
    const rest = (await t.request('GET', '/v1/conversations?limit=1&followed=true', token)).body.nextCursor;
    const cases: [Record<string, unknown>, { message: string; path: (string | number)[] }[], string][] = [
      [{ first: 1, last: 1 }, [{ message: 'Give first or last, not both', path: ['last'] }], 'last: Give first or last, not both'],
      [{ last: 1, after }, [{ message: 'after goes with first: use before with last', path: ['after'] }], 'after goes with first: use before with last'],
      [{ first: 0 }, [{ message: 'first must be at least 1', path: ['first'] }], 'first must be at least 1'],
      [{ last: 101 }, [{ message: 'last must be at most 100 (list-argument cap)', path: ['last'] }], 'last must be at most 100 (list-argument cap)'],
      [{ after }, [{ message: 'after was made with other filters: use the filters of the list it came from', path: ['after'] }], 'after was made with other filters: use the filters of the list it came from'],
      [{ followed: true, after: rest }, [{ message: 'after is not a cursor of this list', path: ['after'] }], 'after is not a cursor of this list'],
      [{ followed: true, before: 'garbage' }, [{ message: 'before is not a cursor of this list', path: ['before'] }], 'before is not a cursor of this list'],
      [{ assignedUserId: 'nobody' }, [{ message: 'must be a digit string or "none"', path: ['assignedUserId'] }], 'assignedUserId: must be a digit string or "none"'],
      [
        { assignedUserId: String(foreign.user), inboxId: String(foreign.inbox) },
        [
          { message: `No user with id ${foreign.user} in this workspace`, path: ['assignedUserId'] },
          { message: `No inbox with id ${foreign.inbox} in this workspace`, path: ['inboxId'] },
        ],
        `assignedUserId: No user with id ${foreign.user} in this workspace (and 1 more issue)`,
      ],
    ];
    for (const [vars, issues, message] of cases) {
      const res = await page(vars);
      expect(res.body, JSON.stringify(vars)).toEqual({ data: null, errors: [invalidInput(['conversations'], issues, message)] });
    }
    expect(ids(await page({ first: 1, followed: true, after }))).toEqual(named('alan'));
  });

  it('conversation(id) answers one conversation by plain or global id; another workspace\'s is notFound', async () => {
    expect((await gql(t, ConversationDocument, { id: String(c.ada.id) }, token)).body).toEqual({ data: { conversation: node(c.ada) } });
    expect((await gql(t, ConversationDocument, { id: globalId('Conversation', c.grace.id) }, token)).body).toEqual({ data: { conversation: node(c.grace) } });
    expect((await gql(t, ConversationDocument, { id: String(foreign.conversation) }, token)).body).toEqual({
      data: null,
      errors: [fieldError(['conversation'], { ...envelopes.notFound, data: { resource: 'Conversation' } }, 'Conversation not found')],
    });
  });

  it('archive, unarchive, read, unread, disable and enable the bot: each answers the conversation as changed', async () => {
    const x = await k.conversation({ contactId: c.ada.contactId, user: ann, lastActivityAt: minutesAfterT0(-5) });
    const id = String(x.id);
    const archived = await gql(t, ArchiveConversationDocument, { id }, token);
    expect(archived.body).toEqual({ data: { archiveConversation: node(x, { archivedAt: isoNow(), updatedAt: isoNow() }) } });
    const archivedAt = archived.body.data!.archiveConversation.archivedAt;
    expect((await gql(t, ArchiveConversationDocument, { id: globalId('Conversation', x.id) }, token)).body.data!.archiveConversation.archivedAt).toBe(archivedAt);
    expect((await gql(t, UnarchiveConversationDocument, { id }, token)).body).toEqual({ data: { unarchiveConversation: node(x, { updatedAt: isoNow() }) } });
    expect((await gql(t, MarkConversationReadDocument, { id }, token)).body).toEqual({ data: { markConversationRead: node(x, { agentLastReadAt: isoNow(), updatedAt: isoNow() }) } });
    expect((await gql(t, MarkConversationUnreadDocument, { id }, token)).body).toEqual({ data: { markConversationUnread: node(x, { updatedAt: isoNow() }) } });
    expect((await gql(t, DisableConversationBotDocument, { id, resumeAt: '2099-03-01T08:00:00+01:00' }, token)).body).toEqual({
      data: { disableConversationBot: node(x, { botEnabled: false, botResumeAt: '2099-03-01T07:00:00.000Z', updatedAt: isoNow() }) },
    });
    expect((await gql(t, DisableConversationBotDocument, { id }, token)).body).toEqual({ data: { disableConversationBot: node(x, { botEnabled: false, updatedAt: isoNow() }) } });
    expect((await gql(t, EnableConversationBotDocument, { id }, token)).body).toEqual({ data: { enableConversationBot: node(x, { updatedAt: isoNow() }) } });
    expect((await gql(t, DisableConversationBotDocument, { id, resumeAt: '2020-01-01T00:00:00.000Z' }, token)).body).toEqual({
      data: null,
      errors: [invalidInput(['disableConversationBot'], [{ message: 'resumeAt must be in the future', path: ['resumeAt'] }], 'resumeAt must be in the future')],
    });
  });

  it('assignConversation sets, clears (null) or keeps (left out); at least one; the user or team must be the workspace\'s', async () => {
    const x = await k.conversation({ contactId: c.ada.contactId, user: ann, team: sales, lastActivityAt: minutesAfterT0(-6) });
    const id = String(x.id);
    expect((await gql(t, AssignConversationDocument, { id, userId: globalId('User', bob.id) }, token)).body).toEqual({
      data: { assignConversation: node(x, { user: bob, updatedAt: isoNow() }) },
    });
    expect((await gql(t, AssignConversationDocument, { id, inboxTeamId: null }, token)).body).toEqual({
      data: { assignConversation: node(x, { user: bob, team: null, updatedAt: isoNow() }) },
    });
    expect((await gql(t, AssignConversationDocument, { id }, token)).body).toEqual({
      data: null,
      errors: [invalidInput(['assignConversation'], [{ message: 'Provide at least one of userId or inboxTeamId', path: [] }], 'Provide at least one of userId or inboxTeamId')],
    });
    expect((await gql(t, AssignConversationDocument, { id, userId: String(foreign.user) }, token)).body).toEqual({
      data: null,
      errors: [
        fieldError(
          ['assignConversation'],
          { defined: true, code: 'validation', status: 422, message: 'Validation error', data: { field: 'userId', reason: 'notFound', ids: [String(foreign.user)] } },
          `userId names nothing in this workspace: ${foreign.user}`,
        ),
      ],
    });
    expect((await gql(t, AssignConversationDocument, { id, inboxTeamId: String(foreign.team) }, token)).body.errors![0].extensions.data).toEqual({
      field: 'inboxTeamId',
      reason: 'notFound',
      ids: [String(foreign.team)],
    });
    expect((await gql(t, ConversationDocument, { id }, token)).body.data!.conversation).toEqual(node(x, { user: bob, team: null, updatedAt: expect.any(String) }));
  });

  it("every mutation is notFound for another workspace's conversation, which stays as it was", async () => {
    const id = String(foreign.conversation);
    const calls = [
      ['archiveConversation', gql(t, ArchiveConversationDocument, { id }, token)],
      ['unarchiveConversation', gql(t, UnarchiveConversationDocument, { id }, token)],
      ['markConversationRead', gql(t, MarkConversationReadDocument, { id }, token)],
      ['markConversationUnread', gql(t, MarkConversationUnreadDocument, { id }, token)],
      ['enableConversationBot', gql(t, EnableConversationBotDocument, { id }, token)],
      ['disableConversationBot', gql(t, DisableConversationBotDocument, { id }, token)],
      ['assignConversation', gql(t, AssignConversationDocument, { id, userId: String(ann.id) }, token)],
    ] as const;
    for (const [field, call] of calls) {
      expect((await call).body, field).toEqual({ data: null, errors: [fieldError([field], { ...envelopes.notFound, data: { resource: 'Conversation' } }, 'Conversation not found')] });
    }
    const row = await t.db.selectFrom('conversations').select(['archived_at', 'assigned_user_id', 'bot_enabled', 'updated_at']).where('id', '=', foreign.conversation).executeTakeFirstOrThrow();
    expect({ ...row, bot_enabled: Boolean(row.bot_enabled) }).toEqual({ archived_at: null, assigned_user_id: null, bot_enabled: true, updated_at: '2026-11-01T10:00:00.000Z' });
  });
});
