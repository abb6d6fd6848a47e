import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CommentAutomationDocument,
  CommentAutomationEventsDocument,
  CommentAutomationsDocument,
  ContactMessagesDocument,
  ContactByIdentifierDocument,
  ContactsWithEverythingDocument,
  ConversationDocument,
  ConversationsDocument,
  DeleteNetLeadAdAutomationDocument,
  DynamicImagesDocument,
  ErrorLogsDocument,
  LeadAdAutomationsDocument,
  OutboxDocument,
  RefreshContactProfileDocument,
  SendMessageDocument,
  TagsDocument,
  TriggerAutoReplyDocument,
  UnfollowConversationDocument,
  WorkspaceCountsDocument,
} from './graphql/generated/graphql.js';
import { sandboxAdapter } from '../src/channels/sandbox.adapter.js';
import { unlimited } from './support/endpoints.js';
import { fixtures } from './support/fixtures.js';
import { fieldError, gql } from './support/graphql.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { notFound } from './support/rest.js';

/** A workspace's token never sees or changes another workspace's rows, through any field. */
describe('GraphQL workspace isolation', () => {
  let t: TestApp;
  let a: TestWorkspace;
  let b: TestWorkspace;
  let asA: { token: string };
  const ids = { a: {} as Record<string, string>, b: {} as Record<string, string> };

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    a = await t.workspace({ name: 'A' });
    b = await t.workspace({ name: 'B' });
    asA = { token: a.developerToken };
    for (const [key, ws] of [['a', a], ['b', b]] as const) {
      const f = fixtures(t.db, ws.id);
      const contact = await f.contact({ email: `${key}@example.com`, phone: key === 'a' ? '+15550001' : '+15550002' });
      const tag = await f.tag(`${key}-tag`);
      await f.tagContact(contact, tag);
      await f.note(contact, `${key} note`);
      const inbox = await f.inbox(`${key}-inbox`);
      await f.contactInbox(contact, inbox);
      const user = await f.user(`${key} agent`, `${key}-agent@example.com`);
      const team = await f.team(`${key} team`);
      ids[key].contact = String(contact);
      ids[key].conversation = String(await f.conversation({ contactId: contact, inboxId: inbox, userId: user, teamId: team }));
      ids[key].netComment = String(await f.commentAutomation('net', `${key} automation`));
      ids[key].leadAd = String(await f.leadAd(`${key} lead ad`));
      ids[key].image = String(await f.dynamicImage(`${key} image`));
      ids[key].log = String(await f.errorLog(`${key} failure`));
      const field = await f.customField(`${key} field`);
      await f.fieldValue(contact, field, `${key} value`);
      await f.subscribe(contact, await f.sequence(`${key} sequence`));
    }
  });
  afterAll(() => t.close());


  it("B's contact, by id, email or phone, is notFound for A", async () => {
    for (const identifier of [ids.b.contact, 'b@example.com', '+15550002', `id:${ids.b.contact}`]) {
      const res = await gql(t, ContactByIdentifierDocument, { identifier }, asA);
      expect(res.body).toEqual({ data: null, errors: [fieldError(['contact'], notFound('Contact'), 'Contact not found')] });
    }
  });

  it("lists hold only A's rows, and A's relations only A's rows", async () => {
    const contacts = await gql(t, ContactsWithEverythingDocument, { first: 50 }, asA);
    const nodes = contacts.body.data!.contacts.edges.map((e) => e.node);
    expect(nodes.map((n) => n.id)).toEqual([ids.a.contact]);
    const [node] = nodes;
    expect(node.tags.map((x) => x.name)).toEqual(['a-tag']);
    expect(node.customFields.map((x) => x.name)).toEqual(['a field']);
    expect(node.sequences.map((x) => x.sequenceName)).toEqual(['a sequence']);
    expect(node.notes.map((x) => x.text)).toEqual(['a note']);
    expect(node.inboxes.map((x) => x.inbox?.name)).toEqual(['a-inbox']);
    expect(node.conversations.map((c) => [c.id, c.assignedUser?.name, c.assignedInboxTeam?.name, c.contact.id])).toEqual([
      [ids.a.conversation, 'a agent', 'a team', ids.a.contact],
    ]);

    expect((await gql(t, TagsDocument, {}, asA)).body.data!.tags.map((x) => x.name)).toEqual(['a-tag']);
    expect((await gql(t, ConversationsDocument, {}, asA)).body.data!.conversations.edges.map((e) => e.node.id)).toEqual([ids.a.conversation]);
    expect((await gql(t, CommentAutomationsDocument, {}, asA)).body.data!.commentAutomations.edges.map((e) => e.node.id)).toEqual([ids.a.netComment]);
    expect((await gql(t, LeadAdAutomationsDocument, {}, asA)).body.data!.leadAdAutomations.data.map((x) => x.id)).toEqual([ids.a.leadAd]);
    expect((await gql(t, DynamicImagesDocument, {}, asA)).body.data!.dynamicImages).toEqual({ pageCount: 1, data: [expect.objectContaining({ id: ids.a.image })] });
    expect((await gql(t, ErrorLogsDocument, {}, asA)).body.data!.errorLogs).toEqual({ pageCount: 1, data: [expect.objectContaining({ id: ids.a.log })] });
  });

  it("counts count only A's rows", async () => {
    const res = await gql(t, WorkspaceCountsDocument, {}, asA);
    expect(res.body).toEqual({
      data: {
        workspace: {
          id: String(a.id),
          counts: { contacts: 1, tags: 1, conversations: 1, commentAutomations: 1, leadAdAutomations: 1, dynamicImages: 1, errorLogs: 1 },
        },
      },
    });
  });

  it("B's conversation and comment automation are notFound for A", async () => {
    expect((await gql(t, ConversationDocument, { id: ids.b.conversation }, asA)).body).toEqual({
      data: null,
      errors: [fieldError(['conversation'], notFound('Conversation'), 'Conversation not found')],
    });
    expect((await gql(t, CommentAutomationDocument, { id: ids.b.netComment }, asA)).body).toEqual({
      data: null,
      errors: [fieldError(['commentAutomation'], notFound('Comment automation'), 'Comment automation not found')],
    });
  });

  it("B's contact's messages, its automation's events and B's outbox are out of A's reach; A's sends to B's contact are notFound", async () => {
    const codeOf = (body: { data?: unknown; errors?: { extensions?: Record<string, unknown> }[] }) => [body.errors?.[0]?.extensions?.code, body.errors?.[0]?.extensions?.status];
    const messages = (await gql(t, ContactMessagesDocument, { identifier: ids.b.contact }, asA)).body;
    expect([messages.data, ...codeOf(messages)]).toEqual([null, 'notFound', 404]);
    const events = (await gql(t, CommentAutomationEventsDocument, { id: ids.b.netComment, channel: 'net' }, asA)).body;
    expect([events.data, ...codeOf(events)]).toEqual([null, 'notFound', 404]);
    for (const [document, variables] of [
      [SendMessageDocument, { identifier: ids.b.contact, text: 'Hi' }],
      [TriggerAutoReplyDocument, { identifier: ids.b.contact }],
      [RefreshContactProfileDocument, { identifier: ids.b.contact }],
    ] as const) {
      const res = (await gql(t, document as typeof SendMessageDocument, variables as { identifier: string; text: string }, asA)).body;
      expect([res.data, ...codeOf(res)]).toEqual([null, 'notFound', 404]);
    }
    const bInbox = await fixtures(t.db, b.id).inbox('b-outbox-inbox', 'photo');
    await sandboxAdapter(t.db).sendMessage({ workspaceId: b.id, inbox: { id: bInbox, channel: 'photo', sourceId: 'b-account' }, recipientId: 'b-person', contactId: Number(ids.b.contact), content: { type: 'text', text: 'for B' } });
    expect((await gql(t, OutboxDocument, {}, asA)).body.data!.outbox.data).toEqual([]);
    expect((await gql(t, OutboxDocument, {}, { token: b.developerToken })).body.data!.outbox.data).toHaveLength(1);
  });

  it("A cannot unfollow B's conversation or delete B's lead-ad automation: notFound, and B's rows are unchanged", async () => {
    expect((await gql(t, UnfollowConversationDocument, { id: ids.b.conversation }, asA)).body).toEqual({
      data: null,
      errors: [fieldError(['unfollowConversation'], notFound('Conversation'), 'Conversation not found')],
    });
    expect((await gql(t, DeleteNetLeadAdAutomationDocument, { id: ids.b.leadAd }, asA)).body).toEqual({
      data: null,
      errors: [fieldError(['deleteNetLeadAdAutomation'], notFound('Lead-ad automation'), 'Lead-ad automation not found')],
    });
    const asB = { token: b.developerToken };
    expect((await gql(t, ConversationDocument, { id: ids.b.conversation }, asB)).body.data!.conversation.followed).toBe(true);
    expect((await gql(t, LeadAdAutomationsDocument, {}, asB)).body.data!.leadAdAutomations.data.map((x) => x.id)).toEqual([ids.b.leadAd]);
  });
});
