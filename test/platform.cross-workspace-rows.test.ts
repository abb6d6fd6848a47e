import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unlimited } from './support/endpoints.js';
import { fixtures } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

/**
 * Defence in depth: rows of workspace A that point at workspace B's records (the API cannot create
 * them, but a bug or a manual fix could) show nothing of B through any route or field that reads
 * them, and cause no error. Every join checks the target's workspace too; a conversation whose
 * contact is in another workspace is not there at all (Conversation.contact is non-null).
 */
describe("rows pointing at another workspace's records show nothing of it", () => {
  let t: TestApp;
  let a: TestWorkspace;
  let contactA: number;
  let brokenConversation: number;
  let partlyBrokenConversation: number;
  let goodConversation: number;

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    a = await t.workspace({ name: 'Alpha' });
    const b = await t.workspace({ name: 'Bravo' });
    const fa = fixtures(t.db, a.id);
    const fb = fixtures(t.db, b.id);

    // A's own records, related properly.
    contactA = await fa.contact({ email: 'ada@example.com', firstName: 'Ada' });
    const fieldA = await fa.customField('Alpha plan');
    await fa.fieldValue(contactA, fieldA, 'Alpha gold');
    const unsetFieldA = await fa.customField('Alpha tier');
    await fa.subscribe(contactA, await fa.sequence('Alpha welcome'));
    await fa.tagContact(contactA, await fa.tag('Alpha VIP'));
    const userA = await fa.user('Alpha agent', 'agent@alpha.example');
    await fa.note(contactA, 'Alpha note', userA);
    const inboxA = await fa.inbox('Alpha inbox');
    await fa.contactInbox(contactA, inboxA);
    const teamA = await fa.team('Alpha team');
    goodConversation = await fa.conversation({ contactId: contactA, inboxId: inboxA, userId: userA, teamId: teamA });

    // B's records.
    const contactB = await fb.contact({ email: 'bob@example.com', firstName: 'Bravo contact' });
    const fieldB = await fb.customField('Bravo plan');
    const sequenceB = await fb.sequence('Bravo welcome');
    const tagB = await fb.tag('Bravo VIP');
    const userB = await fb.user('Bravo agent', 'agent@bravo.example');
    const inboxB = await fb.inbox('Bravo inbox');
    const teamB = await fb.team('Bravo team');

    // Rows of A pointing at B's records, inserted directly.
    await fa.fieldValue(contactA, fieldB, 'Bravo value on a field of B');
    await fb.fieldValue(contactA, unsetFieldA, 'Bravo value stored under B'); // a row of B on A's contact and field
    await fa.subscribe(contactA, sequenceB);
    await fa.tagContact(contactA, tagB);
    await fa.note(contactA, 'Note by a user of B', userB);
    await fa.contactInbox(contactA, inboxB);
    brokenConversation = await fa.conversation({ contactId: contactB, inboxId: inboxA });
    partlyBrokenConversation = await fa.conversation({ contactId: contactA, inboxId: inboxB, userId: userB, teamId: teamB });
  });
  afterAll(() => t.close());
  beforeAll(async () => {
    const res = await graphql('{ conversations(first: 1) { edges { node { id contact { id } } } } }');
    const node = res.body.data.conversations.edges[0].node;
    const global = node.id !== String(partlyBrokenConversation);
    conversationId = (row) => (global ? Buffer.from(`Conversation:${row}`).toString('base64') : String(row));
    contactId = node.contact.id;
  });

  const get = (path: string) => t.request('GET', path, { token: a.developerToken });
  const graphql = (query: string, variables?: Record<string, unknown>) => t.graphql(query, variables, { token: a.developerToken });
  /** GraphQL's id of a conversation: the row id, or a global id when Conversation is a Node. */
  let conversationId: (row: number) => string;
  let contactId: string;
  const noBravo = (body: unknown) => expect(JSON.stringify(body)).not.toMatch(/Bravo/);

  it('REST: custom fields and sequences of a contact are only its workspace’s', async () => {
    const fields = await get(`/v1/contacts/${contactA}/custom-fields`);
    expect(fields.status).toBe(200);
    expect(fields.body.data.map((f: { name: string; value: string }) => [f.name, f.value])).toEqual([['Alpha plan', 'Alpha gold'], ['Alpha tier', '']]);
    const sequences = await get(`/v1/contacts/${contactA}/sequences`);
    expect(sequences.status).toBe(200);
    expect(sequences.body.data.map((s: { sequenceName: string }) => s.sequenceName)).toEqual(['Alpha welcome']);
    noBravo([fields.body, sequences.body]);
  });

  const contactFields = `id tags { name } sequences { sequenceName } customFields { name value } notes { text createdById }
    inboxes { inboxId inbox { name } }
    conversations { id contact { id } inboxId inbox { name } assignedUserId assignedUser { name } assignedInboxTeamId assignedInboxTeam { name } }`;

  it('GraphQL: a contact and the contacts page show only the workspace’s relations', async () => {
    const one = await graphql(`query($id: String!) { contact(identifier: $id) { ${contactFields} } }`, { id: String(contactA) });
    const page = await graphql(`{ contacts(first: 10) { edges { node { ${contactFields} } } } }`);
    for (const res of [one, page]) {
      expect(res.status).toBe(200);
      expect(res.body.errors).toBeUndefined();
      noBravo(res.body);
    }
    const contact = one.body.data.contact;
    expect(page.body.data.contacts.edges.map((e: { node: unknown }) => e.node)).toEqual([contact]);
    expect(contact).toMatchObject({
      tags: [{ name: 'Alpha VIP' }],
      sequences: [{ sequenceName: 'Alpha welcome' }],
      customFields: [{ name: 'Alpha plan', value: 'Alpha gold' }, { name: 'Alpha tier', value: '' }],
      notes: [{ text: 'Alpha note' }, { text: 'Note by a user of B', createdById: null }],
      inboxes: [{ inbox: { name: 'Alpha inbox' } }],
    });
    expect(contact.conversations.map((c: { id: string }) => c.id)).toEqual([conversationId(partlyBrokenConversation), conversationId(goodConversation)]);
    expect(contact.conversations[0]).toMatchObject({ inboxId: null, inbox: null, assignedUserId: null, assignedUser: null, assignedInboxTeamId: null, assignedInboxTeam: null });
    expect(contact.conversations[1]).toMatchObject({ inbox: { name: 'Alpha inbox' }, assignedUser: { name: 'Alpha agent' }, assignedInboxTeam: { name: 'Alpha team' } });
  });

  const conversationFields = `id contact { id firstName } inboxId inbox { name } assignedUserId assignedUser { name } assignedInboxTeamId assignedInboxTeam { name }`;

  it('GraphQL: a conversation whose contact is elsewhere is not there; other references read as none', async () => {
    const list = await graphql(`{ conversations(first: 10) { edges { node { ${conversationFields} } } } }`);
    expect(list.status).toBe(200);
    expect(list.body.errors).toBeUndefined();
    expect(list.body.data.conversations.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([conversationId(partlyBrokenConversation), conversationId(goodConversation)]);
    noBravo(list.body);

    const broken = await graphql(`query($id: ID!) { conversation(id: $id) { ${conversationFields} } }`, { id: conversationId(brokenConversation) });
    expect(broken.status).toBe(200);
    expect(broken.body.data).toBeNull();
    expect(broken.body.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(['notFound']);

    const partly = await graphql(`query($id: ID!) { conversation(id: $id) { ${conversationFields} } }`, { id: conversationId(partlyBrokenConversation) });
    expect(partly.body.errors).toBeUndefined();
    expect(partly.body.data.conversation).toEqual({
      id: conversationId(partlyBrokenConversation),
      contact: { id: contactId, firstName: 'Ada' },
      inboxId: null,
      inbox: null,
      assignedUserId: null,
      assignedUser: null,
      assignedInboxTeamId: null,
      assignedInboxTeam: null,
    });

    const unfollow = await t.request('POST', `/v1/conversations/${brokenConversation}/unfollow`, { token: a.developerToken });
    expect(unfollow.status).toBe(404);
  });

  it('GraphQL: workspace counts leave out the conversation whose contact is elsewhere', async () => {
    const res = await graphql('{ workspace { counts { contacts conversations tags } } }');
    expect(res.body).toEqual({ data: { workspace: { counts: { contacts: 1, conversations: 2, tags: 1 } } } });
  });
});
