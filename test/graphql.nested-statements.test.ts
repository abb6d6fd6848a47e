import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContactsWithEverythingDocument, ConversationsWithEverythingDocument, TagsDocument } from './graphql/generated/graphql.js';
import { fixtures } from './support/fixtures.js';
import { gql, statementsOf } from './support/graphql.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

/**
 * A page of contacts with every relation costs the same SQL statements whatever its size: each
 * relation is one DataLoader batch. (X-Db-Statements counts every statement the request ran.)
 */
describe('GraphQL nested contact page: statements do not grow with the page size', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  const CONTACTS = 60;

  beforeAll(async () => {
    t = await createTestApp();
    ws = await t.workspace({ name: 'Nested' });
    const f = fixtures(t.db, ws.id);
    const inboxes = [await f.inbox('Chat'), await f.inbox('Mail', 'email'), await f.inbox('Web', 'web')];
    const users = [await f.user('Ann', 'ann@example.com'), await f.user('Bob', 'bob@example.com')];
    const teams = [await f.team('Sales'), await f.team('Support')];
    const fields = [await f.customField('plan'), await f.customField('city')];
    const sequences = [await f.sequence('Welcome'), await f.sequence('Nurture')];
    const tags = [await f.tag('vip'), await f.tag('lead'), await f.tag('churned')];
    // Every contact has rows in every relation, and relations point at several different rows, so
    // each loader gets many keys at once.
    for (let i = 0; i < CONTACTS; i++) {
      const c = await f.contact({ email: `c${i}@example.com`, firstName: `C${i}` });
      await f.fieldValue(c, fields[i % 2], `value ${i}`);
      await f.subscribe(c, sequences[i % 2]);
      await f.tagContact(c, tags[i % 3]);
      await f.note(c, `note ${i}`, users[i % 2]);
      await f.contactInbox(c, inboxes[i % 3]);
      await f.conversation({ contactId: c, inboxId: inboxes[(i + 1) % 3], userId: users[i % 2], teamId: teams[i % 2] });
    }
    // The first request with a token looks the token up (then cached): keep it out of the counts.
    expect((await gql(t, TagsDocument, {}, { token: ws.developerToken })).status).toBe(200);
  });
  afterAll(() => t.close());

  const page = async (first: number) => {
    const res = await gql(t, ContactsWithEverythingDocument, { first }, { token: ws.developerToken });
    expect(res.body.errors).toBeUndefined();
    return { res, edges: res.body.data!.contacts.edges };
  };

  it('returns every relation of every contact', async () => {
    const { edges } = await page(50);
    expect(edges).toHaveLength(50);
    for (const { node } of edges) {
      expect(node.customFields).toHaveLength(2); // every field of the workspace, "" when unset
      expect(node.customFields.filter((v) => v.value !== '')).toHaveLength(1);
      expect(node.sequences).toHaveLength(1);
      expect(node.tags).toHaveLength(1);
      expect(node.notes).toHaveLength(1);
      expect(node.inboxes).toHaveLength(1);
      expect(node.inboxes[0].inbox).not.toBeNull();
      expect(node.conversations).toHaveLength(1);
      const [conversation] = node.conversations;
      expect(conversation.inbox).not.toBeNull();
      expect(conversation.assignedUser).not.toBeNull();
      expect(conversation.assignedInboxTeam).not.toBeNull();
      expect(conversation.contact).toEqual({ id: node.id, email: node.email });
    }
  });

  it('costs the same number of SQL statements for first 1, 10 and 50', async () => {
    const counts: Record<number, number> = {};
    for (const first of [1, 10, 50]) {
      const { res, edges } = await page(first);
      expect(edges).toHaveLength(first);
      counts[first] = statementsOf(res);
    }
    // contacts, custom fields, sequences, tags, notes, contact inboxes, their inboxes,
    // conversations, their inboxes, users, teams and contacts: one statement each.
    expect(counts).toEqual({ 1: 12, 10: 12, 50: 12 });
  });

  it('a page of conversations with contact, inbox, assignee and team: the same statements for first 1, 10 and 50', async () => {
    const counts: Record<number, number> = {};
    for (const first of [1, 10, 50]) {
      const res = await gql(t, ConversationsWithEverythingDocument, { first }, { token: ws.developerToken });
      expect(res.body.errors).toBeUndefined();
      const nodes = res.body.data!.conversations.edges.map((e) => e.node);
      expect(nodes).toHaveLength(first);
      for (const c of nodes) expect([c.contact.id, c.inbox?.id, c.assignedUser?.id, c.assignedInboxTeam?.id]).toEqual([c.contactId, c.inboxId, c.assignedUserId, c.assignedInboxTeamId]);
      counts[first] = statementsOf(res);
    }
    // conversations, contacts, inboxes, users, teams.
    expect(counts).toEqual({ 1: 5, 10: 5, 50: 5 });
  });
});
