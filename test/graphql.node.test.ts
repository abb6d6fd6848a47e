import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forbidden, unlimited } from './support/endpoints.js';
import { fixtures } from './support/fixtures.js';
import { insertFolder } from './support/contract-calls/folders.js';
import { fieldError, invalidInput, statementsOf } from './support/graphql.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { recordOutboxEntry } from '../src/domain/outbox/outbox.service.js';
import { insertMessage } from '../src/domain/messages/message.repository.js';

/**
 * Relay's Node interface: every record type's `id` is a global id (base64 of `Type:rawId`),
 * `node(id:)` and `nodes(ids:)` resolve it back, with the type's own access rule, only inside the
 * token's workspace, through per-request DataLoaders (one statement per type), within the cost
 * limit. Arguments that name a record take its global id or its plain id.
 */
const globalId = (type: string, id: number | string) => Buffer.from(`${type}:${id}`).toString('base64');

describe('node(id:) and nodes(ids:)', () => {
  let t: TestApp;
  let a: TestWorkspace;
  let b: TestWorkspace;
  let token: { token: string };
  /** One record of every Node type in workspace A: type name → plain id. */
  const records: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp({ ...unlimited, GRAPHQL_MAX_COST: '300' });
    a = await t.workspace({ name: 'A' });
    b = await t.workspace({ name: 'B' });
    token = { token: a.developerToken };
    const f = fixtures(t.db, a.id);
    records.Contact = await f.contact({ email: 'ada@example.com' });
    records.Tag = await f.tag('vip');
    records.CustomField = await f.customField('Plan');
    records.ContactNote = await f.note(records.Contact, 'Called back');
    records.Inbox = await f.inbox('Support');
    records.ContactInbox = await f.contactInbox(records.Contact, records.Inbox);
    records.User = await f.user('Grace', 'grace@example.com');
    records.InboxTeam = await f.team('Tier 1');
    records.Conversation = await f.conversation({ contactId: records.Contact, inboxId: records.Inbox, userId: records.User, teamId: records.InboxTeam });
    records.CommentAutomation = await f.commentAutomation('net', 'Replies');
    records.LeadAdAutomation = await f.leadAd('Leads');
    records.DynamicImage = await f.dynamicImage('Banner');
    records.ErrorLog = await f.errorLog('Timed out');
    records.Sequence = await f.sequence('Welcome');
    records.SequenceFolder = await insertFolder(t.db, a.id, 'sequence', 'Drips');
    records.CommentAutomationFolder = await insertFolder(t.db, a.id, 'commentAutomation', 'Spring');
    records.Workspace = a.id;
    records.Webhook = await f.webhook('Hook');
    records.ExternalWebhook = await f.externalWebhook('order_placed');
    records.Flow = await f.flow('Welcome flow');
    const sent = await recordOutboxEntry(t.db, a.id, { inboxId: records.Inbox, channel: 'photo', action: 'like', commentId: '178001', contactId: records.Contact });
    records.OutboxEntry = Number(sent.id);
    records.Message = (await insertMessage(t.db, a.id, { conversationId: records.Conversation, contactId: records.Contact, inboxId: records.Inbox, direction: 'incoming', externalId: 'mid-1', text: 'Hello', status: 'received' }))!;
  });
  afterAll(() => t.close());

  const node = (id: string, options = token) => t.graphql('query($id: ID!) { node(id: $id) { __typename id ... on Contact { email } } }', { id }, options);
  const rawIdOf = (id: string, options = token) =>
    t.graphql(`query($id: ID!) { node(id: $id) { __typename id ${nodeTypes.map((type) => `... on ${type} { rawId }`).join(' ')} } }`, { id }, options);
  const nodeTypes = ['Contact', 'Tag', 'CustomField', 'ContactNote', 'Inbox', 'ContactInbox', 'User', 'InboxTeam', 'Conversation', 'CommentAutomation', 'LeadAdAutomation', 'DynamicImage', 'ErrorLog', 'Sequence', 'SequenceFolder', 'CommentAutomationFolder', 'Workspace', 'OutboxEntry', 'Message', 'Webhook', 'ExternalWebhook', 'Flow'];

  it('the schema: every record type implements Node, and nothing else does', async () => {
    const res = await t.graphql('{ __type(name: "Node") { possibleTypes { name } } }', undefined, token);
    expect(res.body.data.__type.possibleTypes.map((p: { name: string }) => p.name).sort()).toEqual([...nodeTypes].sort());
  });

  it('resolves every Node type back to the same record: its type, global id and rawId', async () => {
    for (const type of nodeTypes) {
      const id = globalId(type, records[type]);
      const res = await rawIdOf(id);
      expect(res.body, type).toEqual({ data: { node: { __typename: type, id, rawId: String(records[type]) } } });
    }
  });

  it('the `id` a type answers with is that global id, and node(id:) gives back the same object', async () => {
    const list = await t.graphql('{ contacts(first: 1) { edges { node { id rawId email tags { id } inboxes { id inbox { id } } conversations { id assignedUser { id } } } } } }', undefined, token);
    const contact = list.body.data.contacts.edges[0].node;
    expect(contact).toMatchObject({ id: globalId('Contact', records.Contact), rawId: String(records.Contact), email: 'ada@example.com' });
    expect(contact.conversations[0]).toEqual({ id: globalId('Conversation', records.Conversation), assignedUser: { id: globalId('User', records.User) } });
    expect(contact.inboxes[0]).toEqual({ id: globalId('ContactInbox', records.ContactInbox), inbox: { id: globalId('Inbox', records.Inbox) } });
    expect((await node(contact.id)).body).toEqual({ data: { node: { __typename: 'Contact', id: contact.id, email: 'ada@example.com' } } });
    const fields = await t.graphql('{ contact(identifier: "ada@example.com") { customFields { rawId name customField { id rawId name } } } }', undefined, token);
    expect(fields.body.data.contact.customFields).toEqual([
      { rawId: String(records.CustomField), name: 'Plan', customField: { id: globalId('CustomField', records.CustomField), rawId: String(records.CustomField), name: 'Plan' } },
    ]);
  });

  it('an id that is not a global id, names an unknown type or no record is null (never an error)', async () => {
    for (const id of ['', '12', 'not base64!', globalId('Contact', 'abc'), globalId('Nope', 1), globalId('SequenceSubscription', 1), globalId('Contact', 999999)]) {
      expect((await node(id)).body, id).toEqual({ data: { node: null } });
    }
  });

  it("tenant isolation: B's global ids read from A's token are null, for every type", async () => {
    const f = fixtures(t.db, b.id);
    const theirs: Record<string, number> = { Contact: await f.contact({ email: 'b@example.com' }), Tag: await f.tag('b'), ErrorLog: await f.errorLog('b'), Workspace: b.id };
    theirs.Conversation = await f.conversation({ contactId: theirs.Contact });
    for (const [type, id] of Object.entries(theirs)) expect((await node(globalId(type, id))).body, type).toEqual({ data: { node: null } });
    const ids = Object.entries(theirs).map(([type, id]) => globalId(type, id));
    expect((await t.graphql('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids }, token)).body).toEqual({ data: { nodes: ids.map(() => null) } });
  });

  it("the type's access rule: a token without its scope gets FORBIDDEN; read-only tokens read", async () => {
    const tagsOnly = await t.token(a.id, { kind: 'developer', scopes: ['tags'] });
    const res = await node(globalId('Contact', records.Contact), { token: tagsOnly });
    expect(res.body).toEqual({ data: { node: null }, errors: [fieldError(['node'], forbidden({ reason: 'missingScope', scope: 'contacts' }), 'This token lacks the "contacts" scope')] });
    // nodes: each id as node answers it, the refused one an error at its index.
    const ids = [globalId('Tag', records.Tag), globalId('Contact', records.Contact)];
    const both = await t.graphql('query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }', { ids }, { token: tagsOnly });
    expect(both.body).toEqual({
      data: { nodes: [{ __typename: 'Tag', id: ids[0] }, null] },
      errors: [fieldError(['nodes', 1], forbidden({ reason: 'missingScope', scope: 'contacts' }), 'This token lacks the "contacts" scope')],
    });
    // The workspace, as Query.workspace: workspace API tokens only.
    const user = await node(globalId('Workspace', a.id), { token: a.userToken });
    expect(user.body.errors[0].extensions).toEqual({ ...forbidden({ reason: 'workspaceTokenRequired', acceptedSchemes: ['developerAccessToken', 'tokenInSearchParams'] }), message: undefined });
    const readOnly = await t.token(a.id, { kind: 'developer', readOnly: true });
    expect((await node(globalId('Contact', records.Contact), { token: readOnly })).body.data.node).toMatchObject({ email: 'ada@example.com' });
  });

  it('nodes(ids:) costs one statement per type, whatever the number of ids', async () => {
    const f = fixtures(t.db, a.id);
    const tags = [records.Tag, ...(await Promise.all(Array.from({ length: 9 }, (_, i) => f.tag(`t${i}`))))];
    const logs = await Promise.all(Array.from({ length: 10 }, (_, i) => f.errorLog(`e${i}`)));
    const conversations = await Promise.all(Array.from({ length: 10 }, () => f.conversation({ contactId: records.Contact })));
    const count = async (n: number) => {
      const ids = [
        ...tags.slice(0, n).map((id) => globalId('Tag', id)),
        ...logs.slice(0, n).map((id) => globalId('ErrorLog', id)),
        ...conversations.slice(0, n).map((id) => globalId('Conversation', id)),
      ];
      const res = await t.graphql('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids }, token);
      expect(res.body.data.nodes.map((x: { id: string }) => x.id)).toEqual(ids);
      return statementsOf(res);
    };
    const one = await count(1);
    expect(one).toBe(3);
    expect(await count(5)).toBe(one);
    expect(await count(10)).toBe(one);
  });

  it('nodes counts against the cost limit per id, and takes at most 100 ids', async () => {
    // Each id's selection counts once per id: a contact's conversations with their contact cost
    // 1 + 10 * 1 = 11, so n ids cost 1 + 11n: 27 ids fit the limit of 300, 28 do not.
    const q = 'query($ids: [ID!]!) { nodes(ids: $ids) { ... on Contact { conversations { contact { email } } } } }';
    const ids = (n: number) => Array.from({ length: n }, (_, i) => globalId('Contact', i + 1));
    expect((await t.graphql(q, { ids: ids(27) }, token)).body.errors).toBeUndefined();
    expect((await t.graphql(q, { ids: ids(28) }, token)).body.errors.map((e: { message: string }) => e.message)).toEqual(['Query cost 309 exceeds the limit of 300']);
    const many = await t.graphql('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: ids(101) }, token);
    expect(many.body.errors).toEqual([
      invalidInput(['nodes'], [{ message: 'ids must hold at most 100 ids', path: ['ids'] }], 'ids must hold at most 100 ids'),
    ]);
  });

  it('arguments that name a record take its global id or its plain id; another type\'s global id is a 422 at the argument', async () => {
    const q = 'query($id: ID!) { conversation(id: $id) { rawId } }';
    for (const id of [String(records.Conversation), globalId('Conversation', records.Conversation)]) {
      expect((await t.graphql(q, { id }, token)).body, id).toEqual({ data: { conversation: { rawId: String(records.Conversation) } } });
    }
    const wrong = await t.graphql(q, { id: globalId('Tag', records.Tag) }, token);
    const issue = 'must be a Conversation id, but this is the global id of a Tag';
    expect(wrong.body).toEqual({
      data: null,
      errors: [invalidInput(['conversation'], [{ message: issue, path: ['id'] }], `id: ${issue}`)],
    });
    const automation = await t.graphql('query($id: ID!) { commentAutomation(id: $id) { rawId } }', { id: globalId('CommentAutomation', records.CommentAutomation) }, token);
    expect(automation.body).toEqual({ data: { commentAutomation: { rawId: String(records.CommentAutomation) } } });
    const contact = await t.graphql('query($id: String!) { contact(identifier: $id) { rawId } }', { id: globalId('Contact', records.Contact) }, token);
    expect(contact.body).toEqual({ data: { contact: { rawId: String(records.Contact) } } });
  });
});
