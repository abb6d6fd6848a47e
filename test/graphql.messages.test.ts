import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertMessage } from '../src/domain/messages/message.repository.js';
import { upsertSandboxRecord } from '../src/domain/sandbox/sandbox-record.repository.js';
import {
  ContactMessagesDocument,
  RefreshContactProfileDocument,
  SendMessageDocument,
  TriggerAutoReplyDocument,
} from './graphql/generated/graphql.js';
import { testEngine } from './support/engine.js';
import { unlimited } from './support/endpoints.js';
import { fixtures } from './support/fixtures.js';
import { gql } from './support/graphql.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

/**
 * GraphQL over the messages services: Contact.messages pages as the REST list does (the same
 * messages, keyset cursors, filters), and sendMessage, triggerAutoReply and refreshContactProfile
 * answer what REST answers, with REST's error codes and data in extensions. (A page of contacts
 * with their messages, and its statement count: test/graphql.nested-statements.test.ts.)
 */
const globalId = (type: string, id: number | string) => Buffer.from(`${type}:${id}`).toString('base64');

describe(`GraphQL messages on ${testEngine}`, () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let contact: number;
  let inbox: number;
  let personId: string;
  const texts: string[] = [];

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    ws = await t.workspace();
    const f = fixtures(t.db, ws.id);
    contact = await f.contact({ email: 'ada@example.com', firstName: 'Ada' });
    inbox = await f.inbox('Photo', 'photo');
    personId = 'psid-ada';
    await t.db.insertInto('contact_inboxes').values({ workspace_id: ws.id, contact_id: contact, inbox_id: inbox, channel: 'photo', source_id: personId, created_at: new Date().toISOString() }).execute();
    const recent = new Date(Date.now() - 60_000).toISOString();
    const conversation = await f.conversation({ contactId: contact, inboxId: inbox, lastActivityAt: recent });
    await t.db.updateTable('conversations').set({ contact_replied_at: recent }).where('id', '=', conversation).execute();
    for (let i = 1; i <= 5; i++) {
      texts.unshift(`Message ${i}`);
      await insertMessage(t.db, ws.id, { conversationId: conversation, contactId: contact, inboxId: inbox, direction: i === 5 ? 'outgoing' : 'incoming', externalId: `mid-${i}`, text: `Message ${i}`, status: i === 5 ? 'sent' : 'received', createdAt: recent });
    }
  });
  afterAll(() => t?.close());

  const token = () => ({ token: ws.developerToken });

  it('Contact.messages: the REST list, in pages by first/after, as Message nodes', async () => {
    const first = await gql(t, ContactMessagesDocument, { identifier: 'ada@example.com', first: 3 }, token());
    const rest = (await t.request('GET', `/v1/contacts/${contact}/messages?limit=50`, token())).body.data;
    const page1 = first.body.data!.contact.messages;
    expect(page1.edges.map((e) => e.node.text)).toEqual(texts.slice(0, 3));
    expect(page1.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const { id, rawId, ...node } = page1.edges[0].node;
    const { id: restId, ...restFields } = rest[0];
    expect([id, rawId]).toEqual([globalId('Message', restId), restId]);
    expect(node).toEqual(restFields);
    const second = await gql(t, ContactMessagesDocument, { identifier: String(contact), first: 3, after: page1.pageInfo.endCursor }, token());
    expect(second.body.data!.contact.messages.edges.map((e) => e.node.text)).toEqual(texts.slice(3));
    expect(second.body.data!.contact.messages.pageInfo.hasNextPage).toBe(false);
    const outgoing = await gql(t, ContactMessagesDocument, { identifier: String(contact), direction: 'outgoing', inboxId: globalId('Inbox', inbox) }, token());
    expect(outgoing.body.data!.contact.messages.edges.map((e) => e.node.text)).toEqual(['Message 5']);
    // The node resolves back to the message.
    const back = await t.graphql('query($id: ID!) { node(id: $id) { __typename ... on Message { text contact { rawId } } } }', { id }, token());
    expect(back.body).toEqual({ data: { node: { __typename: 'Message', text: texts[0], contact: { rawId: String(contact) } } } });
  });

  it('first is 1 to 50; a cursor of another list is refused', async () => {
    const tooMany = await gql(t, ContactMessagesDocument, { identifier: String(contact), first: 51 }, token());
    expect(tooMany.body.errors?.[0].extensions).toMatchObject({ code: 'invalidRequestData', data: { issues: [{ message: 'first must be at most 50', path: ['first'] }] } });
    const foreign = Buffer.from('contacts:12').toString('base64url');
    const refused = await gql(t, ContactMessagesDocument, { identifier: String(contact), after: foreign }, token());
    expect(refused.body.errors?.[0].extensions).toMatchObject({ code: 'invalidRequestData' });
    // Numbers past int4 (ids are int4 on PostgreSQL): no cursor of ours, and an inbox with nothing in it; never a 500.
    const huge = Buffer.from('messages:9999999999').toString('base64url');
    const hugeCursor = await gql(t, ContactMessagesDocument, { identifier: String(contact), after: huge }, token());
    expect(hugeCursor.body.errors?.[0].extensions).toMatchObject({ code: 'invalidRequestData' });
    const hugeInbox = await gql(t, ContactMessagesDocument, { identifier: String(contact), inboxId: '99999999999' }, token());
    expect(hugeInbox.body.errors).toBeUndefined();
    expect(hugeInbox.body.data!.contact.messages.edges).toEqual([]);
  });

  it('sendMessage and triggerAutoReply: the message as REST answers it; a closed window is the REST error', async () => {
    const sent = await gql(t, SendMessageDocument, { identifier: String(contact), text: 'We do!', inboxId: globalId('Inbox', inbox) }, token());
    expect(sent.body.errors).toBeUndefined();
    const message = sent.body.data!.sendMessage;
    expect(message).toMatchObject({ direction: 'outgoing', status: 'sent', text: 'We do!', inboxId: String(inbox), contactId: String(contact) });
    const rest = (await t.request('GET', `/v1/contacts/${contact}/messages/${message.rawId}`, token())).body;
    const { id: _id, rawId: _raw, ...fields } = message;
    const { id: _restId, ...restFields } = rest;
    expect(fields).toEqual(restFields);
    const auto = await gql(t, TriggerAutoReplyDocument, { identifier: 'ada@example.com' }, token());
    expect(auto.body.data!.triggerAutoReply).toMatchObject({ text: 'Thanks for your message! We will get back to you shortly.', status: 'sent' });

    await t.db.updateTable('conversations').set({ contact_replied_at: new Date(Date.now() - 30 * 3_600_000).toISOString() }).where('contact_id', '=', contact).execute();
    const closed = await gql(t, SendMessageDocument, { identifier: String(contact), text: 'Late' }, token());
    expect(closed.body.data).toBeNull();
    expect(closed.body.errors?.[0]).toMatchObject({ path: ['sendMessage'], extensions: { code: 'validation', status: 422, data: { field: 'inboxId', reason: 'windowClosed' } } });
    const empty = await gql(t, SendMessageDocument, { identifier: String(contact), text: '  ' }, token());
    expect(empty.body.errors?.[0].extensions).toMatchObject({ code: 'invalidRequestData', data: { issues: [{ message: 'text must not be empty', path: ['text'] }] } });
  });

  it('refreshContactProfile: the contact with its names and avatar from the profile', async () => {
    await upsertSandboxRecord(t.db, ws.id, 'profile', personId, { firstName: 'Augusta', lastName: 'King', name: null, username: null, avatarUrl: 'https://cdn.example/a.jpg' });
    const res = await gql(t, RefreshContactProfileDocument, { identifier: globalId('Contact', contact) }, token());
    expect(res.body).toEqual({
      data: { refreshContactProfile: { id: globalId('Contact', contact), rawId: String(contact), firstName: 'Augusta', lastName: 'King', fullName: 'Augusta King', avatar: 'https://cdn.example/a.jpg' } },
    });
  });
});

