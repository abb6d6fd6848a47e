import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngine } from './support/engine.js';
import { unlimited } from './support/endpoints.js';
import { fixtures } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { event, recordedEvents } from './support/recorded-events.js';

/**
 * Events of conversation actions (workspace_events, written with the change), about the
 * conversation's contact: followUp, archived, conversationTransferredToHuman/ToBot,
 * conversationAssigned/Unassigned, each only when the state actually changed. `*_by` is the user of
 * a user access token, null for a workspace API token. Unfollow, unarchive, read/unread and the
 * team assignment record nothing.
 */
describe(`events of conversations on ${testEngine}`, () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let f: ReturnType<typeof fixtures>;
  let events: ReturnType<typeof recordedEvents>;
  let owner: string;
  let contact: number;
  let ann: number;
  let bob: number;
  let team: number;

  const post = async (id: number, verb: string, body?: unknown, token = ws.developerToken) => {
    const res = await t.request('POST', `/v1/conversations/${id}/${verb}`, { token, ...(body === undefined ? {} : { body }) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const fresh = (c: { followed?: boolean; botEnabled?: boolean; userId?: number | null; archivedAt?: string | null } = {}) =>
    f.conversation({ contactId: contact, followed: false, ...c });
  const conversationEvent = (type: string, name: string, id: number, data: Record<string, unknown>) => event(type, name, contact, { conversation_id: String(id), ...data });

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    ws = await t.workspace({ name: 'Desk' });
    f = fixtures(t.db, ws.id);
    owner = String(ws.created.owner.id);
    contact = await f.contact({ email: 'talk@example.com' });
    ann = await f.user('Ann Agent', 'ann@company.example');
    bob = await f.user('Bob Agent', 'bob@company.example');
    team = await f.team('Sales');
    events = recordedEvents(t.db, ws.id);
  });
  afterAll(() => t?.close());

  it('follow: followUp when it was not followed (marked_by the user, or null); again, or unfollow, records nothing', async () => {
    const c = await fresh();
    await post(c, 'follow', undefined, ws.userToken);
    expect(await events.next()).toEqual([conversationEvent('followUp', 'marked_as_follow_up', c, { marked_by: owner })]);
    await post(c, 'follow');
    await post(c, 'unfollow');
    expect(await events.next()).toEqual([]);
    await post(c, 'follow');
    expect(await events.next()).toEqual([conversationEvent('followUp', 'marked_as_follow_up', c, { marked_by: null })]);
    // An unknown conversation: 404, nothing recorded.
    expect((await t.request('POST', '/v1/conversations/424242/follow', { token: ws.developerToken })).status).toBe(404);
    expect(await events.next()).toEqual([]);
  });

  it('archive: archived when archivedAt goes from null to set; again, or unarchive, records nothing', async () => {
    const c = await fresh();
    await post(c, 'archive', undefined, ws.userToken);
    expect(await events.next()).toEqual([conversationEvent('archived', 'conversation_archived', c, { archived_by: owner })]);
    await post(c, 'archive');
    await post(c, 'unarchive');
    expect(await events.next()).toEqual([]);
  });

  it('the bot: off where it was on is a transfer to a human, on where it was off a transfer to the bot; repeats record nothing', async () => {
    const c = await fresh({ botEnabled: true });
    await post(c, 'disable-bot', { resumeAt: '2099-01-01T09:00:00.000Z' });
    expect(await events.next()).toEqual([conversationEvent('conversationTransferredToHuman', 'conversation_transferred_to_human', c, { transferred_by: null })]);
    await post(c, 'disable-bot', {});
    expect(await events.next()).toEqual([]);
    await post(c, 'enable-bot', undefined, ws.userToken);
    expect(await events.next()).toEqual([conversationEvent('conversationTransferredToBot', 'conversation_transferred_to_bot', c, { transferred_by: owner })]);
    await post(c, 'enable-bot');
    expect(await events.next()).toEqual([]);
  });

  it('assign: another user is conversationAssigned, none conversationUnassigned (naming the previous user); the same user or the team alone records nothing', async () => {
    const c = await fresh();
    await post(c, 'assign', { userId: String(ann) }, ws.userToken);
    expect(await events.next()).toEqual([conversationEvent('conversationAssigned', 'conversation_assigned', c, { assigned_to: String(ann), assigned_by: owner })]);
    await post(c, 'assign', { userId: String(ann), inboxTeamId: String(team) });
    await post(c, 'assign', { inboxTeamId: null });
    expect(await events.next()).toEqual([]);
    await post(c, 'assign', { userId: String(bob) });
    expect(await events.next()).toEqual([conversationEvent('conversationAssigned', 'conversation_assigned', c, { assigned_to: String(bob), assigned_by: null })]);
    await post(c, 'assign', { userId: null }, ws.userToken);
    expect(await events.next()).toEqual([conversationEvent('conversationUnassigned', 'conversation_unassigned', c, { assigned_to: String(bob), unassigned_by: owner })]);
    await post(c, 'assign', { userId: null });
    expect(await events.next()).toEqual([]);
    // An unknown user: 422, nothing changed or recorded.
    expect((await t.request('POST', `/v1/conversations/${c}/assign`, { token: ws.developerToken, body: { userId: '424242' } })).status).toBe(422);
    expect(await events.next()).toEqual([]);
  });

  it('the same change sent several times at once records its event once (the row is locked while read)', async () => {
    const c = await fresh({ botEnabled: true });
    await Promise.all([post(c, 'archive'), post(c, 'archive'), post(c, 'archive')]);
    await Promise.all([post(c, 'follow'), post(c, 'follow'), post(c, 'follow')]);
    await Promise.all([post(c, 'assign', { userId: String(ann) }), post(c, 'assign', { userId: String(ann) })]);
    const recorded = await events.next();
    expect(recorded.map((e) => e.type).sort()).toEqual(['archived', 'conversationAssigned', 'followUp']);
  });

  it('read and unread record nothing', async () => {
    const c = await fresh();
    await post(c, 'read');
    await post(c, 'unread');
    expect(await events.next()).toEqual([]);
  });

  it('GraphQL: followConversation, archiveConversation, disableConversationBot and assignConversation record the same, by the token user', async () => {
    const c = await fresh({ botEnabled: true });
    const run = async (mutation: string, variables: Record<string, unknown>) => {
      const res = await t.graphql(mutation, { id: String(c), ...variables }, { token: ws.userToken });
      expect(res.body.errors).toBeUndefined();
    };
    await run('mutation($id: ID!) { followConversation(id: $id) { success } }', {});
    await run('mutation($id: ID!) { archiveConversation(id: $id) { rawId } }', {});
    await run('mutation($id: ID!) { disableConversationBot(id: $id) { rawId } }', {});
    await run('mutation($id: ID!, $userId: ID) { assignConversation(id: $id, userId: $userId) { rawId } }', { userId: String(ann) });
    expect(await events.next()).toEqual([
      conversationEvent('followUp', 'marked_as_follow_up', c, { marked_by: owner }),
      conversationEvent('archived', 'conversation_archived', c, { archived_by: owner }),
      conversationEvent('conversationTransferredToHuman', 'conversation_transferred_to_human', c, { transferred_by: owner }),
      conversationEvent('conversationAssigned', 'conversation_assigned', c, { assigned_to: String(ann), assigned_by: owner }),
    ]);
  });
});
