import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationKeysBeyondListing, conversationListingKeys } from '../src/domain/conversations/conversation.schema.js';
import { conversationListingsForContacts } from '../src/domain/conversations/conversation.repository.js';
import { tagKeysBeyondListing, tagListingKeys } from '../src/domain/tags/tag.schema.js';
import { tagListingsForContacts } from '../src/domain/tags/tag.repository.js';
import type { GraphQLContext } from '../src/graphql/context.js';
import { createLoaders } from '../src/graphql/loaders.js';
import { conversationListings } from '../src/graphql/types/refs.js';
import { tagListings } from '../src/graphql/types/tag.type.js';
import { fixtures } from './support/fixtures.js';
import { statementsOf } from './support/graphql.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

/**
 * A contact's tags and conversations, asked for with nothing beyond a listing's fields, are read as
 * listings (src/graphql/listing.ts): the statement that reads them selects a listing's columns.
 * Asked for with any other field, however it is written, they are read whole, by the same one
 * statement. Either way every field answers what REST answers for that tag or conversation.
 */
describe('GraphQL contacts: a contact\'s tags and conversations as listings', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  const CONTACTS = 8;
  /** REST's answers, by plain id: each tag as GET /v1/contacts/{id}/tags lists it, each conversation as GET /v1/conversations/{id}. */
  const tags = new Map<string, Record<string, unknown>>();
  const conversations = new Map<string, Record<string, unknown>>();
  const contactIds: number[] = [];

  beforeAll(async () => {
    t = await createTestApp({}, { captureStatements: true });
    ws = await t.workspace({ name: 'Relation listings' });
    const f = fixtures(t.db, ws.id);
    const inboxes = [await f.inbox('Web chat'), await f.inbox('Mail', 'email')];
    const users = [await f.user('Ada', 'ada@example.com'), await f.user('Grace', 'grace@example.com')];
    const team = await f.team('Support');
    const tagIds = [];
    for (let i = 0; i < 5; i++) {
      const id = await f.tag(`Tag ${i}`);
      // Every column beyond a tag listing differs from tag to tag, nulls included.
      await t.db
        .updateTable('tags')
        .set({ folder_id: i % 2 ? 100 + i : null, created_at: `2026-10-0${1 + i}T08:00:00.000Z`, updated_at: `2026-11-0${1 + i}T09:30:00.000Z` })
        .where('id', '=', id)
        .execute();
      tagIds.push(id);
    }
    // A deleted tag is no contact's tag on either side.
    const deleted = await f.tag('Gone', { deletedAt: '2026-11-10T00:00:00.000Z' });
    for (let i = 0; i < CONTACTS; i++) {
      const contactId = await f.contact({ email: `r${i}@example.com`, firstName: `Rel${i}`, createdAt: `2026-11-0${1 + i}T00:00:00.000Z` });
      contactIds.push(contactId);
      for (let k = 0; k < i % 4; k++) await f.tagContact(contactId, tagIds[(i + k) % tagIds.length]);
      if (i === 1) await f.tagContact(contactId, deleted);
      for (let k = 0; k < i % 3; k++) {
        const n = i * 3 + k;
        const id = await f.conversation({
          contactId,
          inboxId: n % 4 === 0 ? null : inboxes[n % 2],
          userId: n % 3 === 1 ? null : users[n % 2],
          teamId: n % 2 ? team : null,
          followed: n % 2 === 0,
          botEnabled: n % 3 !== 0,
          botResumeAt: n % 2 ? `2026-12-0${1 + (n % 9)}T10:00:00.000Z` : null,
          archivedAt: n % 4 === 3 ? '2026-11-20T12:00:00.000Z' : null,
          agentLastReadAt: n % 2 ? null : `2026-11-1${n % 10}T07:00:00.000Z`,
          createdAt: `2026-11-0${1 + (n % 9)}T06:00:00.000Z`,
          lastActivityAt: `2026-11-1${n % 10}T06:00:00.000Z`,
        });
        // Every other column beyond a conversation listing varies too.
        await t.db
          .updateTable('conversations')
          .set({
            updated_at: `2026-11-2${n % 10}T06:00:00.000Z`,
            contact_last_read_at: n % 3 ? `2026-11-1${n % 10}T08:00:00.000Z` : null,
            admin_replied_at: n % 2 ? `2026-11-1${n % 10}T09:00:00.000Z` : null,
            contact_replied_at: n % 2 ? null : `2026-11-1${n % 10}T09:30:00.000Z`,
            additional_attributes: JSON.stringify({ source: `s${n}` }),
            ai_context_last_message_id: n % 2 ? `m${n}` : null,
          })
          .where('id', '=', id)
          .execute();
        const res = await t.request('GET', `/v1/conversations/${id}`, { token: ws.developerToken });
        expect(res.status).toBe(200);
        conversations.set(String(id), res.body);
      }
      const res = await t.request('GET', `/v1/contacts/${contactId}/tags`, { token: ws.developerToken });
      expect(res.status).toBe(200);
      for (const tag of res.body.data) tags.set(tag.id, tag);
    }
    expect(tags.size).toBe(5);
    expect(conversations.size).toBe(7);
  });
  afterAll(() => t?.close());

  const tagListingFields = tagListingKeys.filter((key) => key !== 'id').join(' ');
  const conversationListingFields = conversationListingKeys.filter((key) => key !== 'id').join(' ');
  const everyConversationField = [conversationListingFields, ...conversationKeysBeyondListing].join(' ');

  /** Runs a query for every contact; answers the relations it read, the statements it cost, and their SQL. */
  const run = async (relations: string, fragments = '') => {
    t.statements.length = 0;
    const res = await t.graphql(`{ contacts(first: ${CONTACTS}) { edges { node { rawId ${relations} } } } } ${fragments}`, {}, { token: ws.developerToken });
    expect(res.body.errors).toBeUndefined();
    const nodes = res.body.data.contacts.edges.map((e: { node: Record<string, unknown> }) => e.node) as Record<string, Record<string, unknown>[]>[];
    expect(nodes).toHaveLength(CONTACTS);
    return { nodes, statements: statementsOf(res), sql: [...t.statements] };
  };

  /** The select list of the statement that reads `table` (up to the first scalar subquery). */
  const columnsRead = (sql: string[], table: string) => {
    const statement = sql.find((s) => s.includes(` from "${table}"`));
    expect(statement).toBeDefined();
    return statement!.slice('select '.length, statement!.indexOf(` from "${table}"`)).split(', (select')[0];
  };
  const tagListingColumns = '"t"."id", "t"."name", "ct"."contact_id"';
  const conversationListingColumns =
    '"conversations"."id", "conversations"."workspace_id", "conversations"."contact_id", "conversations"."followed", "conversations"."bot_enabled", "conversations"."archived_at", "conversations"."last_activity_at"';

  /** Every field of every record equals REST's value of the field it names (`rawId` is REST's `id`). */
  const expectAsRest = (records: Record<string, unknown>[], truth: Map<string, Record<string, unknown>>, names: Record<string, string> = {}) => {
    for (const record of records) {
      const rest = truth.get(record.rawId as string)!;
      expect(rest).toBeDefined();
      for (const [key, value] of Object.entries(record)) {
        if (key === 'rawId') continue;
        if (key === 'id') expect(atob(value as string)).toMatch(new RegExp(`^(Tag|Conversation):${record.rawId}$`));
        else expect({ [key]: value }).toEqual({ [key]: rest[names[key] ?? key] });
      }
    }
  };
  /** The records of every contact, each contact's in REST's order. */
  const all = (nodes: Record<string, Record<string, unknown>[]>[], relation: string) => nodes.flatMap((n) => n[relation]);

  it('asked for only a listing\'s fields, tags and conversations read a listing\'s columns and answer as REST, in 3 statements', async () => {
    const { nodes, statements, sql } = await run(`tags { id rawId ${tagListingFields} } conversations { id rawId ${conversationListingFields} }`);
    expect(statements).toBe(3);
    expect(columnsRead(sql, 'contact_tags')).toBe(tagListingColumns);
    expect(columnsRead(sql, 'conversations')).toBe(conversationListingColumns);
    expectAsRest(all(nodes, 'tags'), tags);
    expectAsRest(all(nodes, 'conversations'), conversations);
    expect(all(nodes, 'tags')).toHaveLength(12);
    expect(all(nodes, 'conversations')).toHaveLength(7);
    // Each contact's relations in REST's order: tags by name, conversations newest first.
    for (const [i, node] of nodes.entries()) {
      const rest = await t.request('GET', `/v1/contacts/${node.rawId}/tags`, { token: ws.developerToken });
      expect(node.tags.map((tag) => tag.rawId)).toEqual(rest.body.data.map((tag: { id: string }) => tag.id));
      const ids = node.conversations.map((c) => Number(c.rawId));
      expect(ids, `contact ${i}`).toEqual([...ids].sort((a, b) => b - a));
    }
  });

  it('every field of every tag and conversation is REST\'s, read whole in the same 3 statements', async () => {
    const everyTagField = [tagListingFields, ...tagKeysBeyondListing].join(' ');
    const { nodes, statements, sql } = await run(`tags { rawId ${everyTagField} } conversations { rawId ${everyConversationField} }`);
    expect(statements).toBe(3);
    expect(columnsRead(sql, 'contact_tags')).not.toBe(tagListingColumns);
    expect(columnsRead(sql, 'conversations')).toBe('"conversations".*');
    expectAsRest(all(nodes, 'tags'), tags);
    expectAsRest(all(nodes, 'conversations'), conversations);
    // The fixtures gave the columns beyond a listing more than one value each.
    // (A contact's tags are live ones of this workspace: their deletedAt and workspaceId cannot vary.)
    for (const key of tagKeysBeyondListing.filter((k) => k !== 'deletedAt' && k !== 'workspaceId')) expect(new Set(all(nodes, 'tags').map((r) => JSON.stringify(r[key]))).size).toBeGreaterThan(1);
    for (const key of conversationKeysBeyondListing) expect(new Set(all(nodes, 'conversations').map((r) => JSON.stringify(r[key]))).size).toBeGreaterThan(1);
  });

  it.each([
    ['by name', 'tags { rawId updatedAt } conversations { rawId additionalAttributes }', '', {}],
    ['under an alias', 'tags { rawId changed: updatedAt } conversations { rawId extra: additionalAttributes }', '', { changed: 'updatedAt', extra: 'additionalAttributes' }],
    ['in an inline fragment', 'tags { rawId ... on Tag { updatedAt } } conversations { rawId ... on Conversation { additionalAttributes } }', '', {}],
    ['in a named fragment', 'tags { rawId ...T } conversations { rawId ...C }', 'fragment T on Tag { updatedAt } fragment C on Conversation { additionalAttributes }', {}],
  ])('a field beyond a listing selected %s reads the relation whole, in the same 3 statements', async (_how, relations, fragments, names) => {
    const { nodes, statements, sql } = await run(relations, fragments);
    expect(statements).toBe(3);
    expect(columnsRead(sql, 'contact_tags')).not.toBe(tagListingColumns);
    expect(columnsRead(sql, 'conversations')).toBe('"conversations".*');
    for (const relation of ['tags', 'conversations'] as const) {
      const records = all(nodes, relation);
      for (const record of records) expect(Object.keys(record)).toHaveLength(2);
      expectAsRest(records, relation === 'tags' ? tags : conversations, names as Record<string, string>);
    }
  });

  it('a contact\'s conversations as listings still load their inbox, assignee and team, and their contact, as REST answers them', async () => {
    const { nodes, statements, sql } = await run('conversations { rawId inbox { rawId name } assignedUser { rawId name email } assignedInboxTeam { rawId name } contact { rawId } }');
    // The page, the conversations, and one batch each for inboxes, users and teams; the contacts are the page's, already loaded.
    expect(statements).toBe(6);
    expect(columnsRead(sql, 'conversations')).toBe(conversationListingColumns);
    for (const node of nodes) {
      for (const c of node.conversations) {
        const rest = conversations.get(c.rawId as string)! as Record<string, Record<string, unknown> | null>;
        expect(c.contact).toEqual({ rawId: node.rawId });
        expect(c.inbox).toEqual(rest.inbox && { rawId: rest.inbox.id, name: rest.inbox.name });
        expect(c.assignedUser).toEqual(rest.assignedUser && { rawId: rest.assignedUser.id, name: rest.assignedUser.name, email: rest.assignedUser.email });
        expect(c.assignedInboxTeam).toEqual(rest.assignedInboxTeam && { rawId: rest.assignedInboxTeam.id, name: rest.assignedInboxTeam.name });
      }
    }
    const relations = all(nodes, 'conversations');
    for (const key of ['inbox', 'assignedUser', 'assignedInboxTeam']) expect(relations.some((c) => c[key] === null) && relations.some((c) => c[key] !== null)).toBe(true);
  });

  it('a field a listing lacks, asked of a listing, answers the stored value through the whole record (one batched statement each), or notFound for a record the workspace does not hold', async () => {
    // The safeguard behind a selection check that missed a field: the resolvers the schema runs, on
    // listings the repositories read, with the request's loaders.
    const ctx = { loaders: createLoaders(t.db, ws.id) } as GraphQLContext;
    const tagRows = await tagListingsForContacts(t.db, ws.id, contactIds);
    const conversationRows = await conversationListingsForContacts(t.db, ws.id, contactIds);
    t.statements.length = 0;
    const updatedAt = await Promise.all(tagRows.map((tag) => tagListings.beyond('updatedAt')(tag, {}, ctx)));
    const extra = await Promise.all(conversationRows.map((c) => conversationListings.beyond('additionalAttributes')(c, {}, ctx)));
    expect(t.statements).toHaveLength(2);
    expect(updatedAt).toEqual(tagRows.map((tag) => tags.get(tag.id)!.updatedAt));
    expect(extra).toEqual(conversationRows.map((c) => conversations.get(c.id)!.additionalAttributes));

    // A listing whose record the workspace no longer holds (here: another workspace's id) is not found.
    const other = await t.workspace({ name: 'Other' });
    const strangers = fixtures(t.db, other.id);
    const elsewhere = await strangers.conversation({ contactId: await strangers.contact({ email: 'o@example.com' }) });
    await expect(conversationListings.beyond('updatedAt')({ ...conversationRows[0], id: String(elsewhere) }, {}, ctx)).rejects.toMatchObject({
      code: 'notFound',
      data: { resource: 'conversation' },
    });
  });
});
