import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContactsWithEverythingDocument, ContactsWithMessagesDocument, ConversationsWithEverythingDocument, TagsDocument } from './graphql/generated/graphql.js';
import { insertMessage } from '../src/domain/messages/message.repository.js';
import { sandboxAdapter } from '../src/channels/sandbox.adapter.js';
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

/**
 * The counts of the contacts-api (Inbox.contactsCount, CustomField.valuesCount,
 * Sequence.subscribersCount) load through DataLoaders: a list of any length costs one grouped count
 * for all its records. Their own workspace, with 50 and more of each record, so every list size
 * below names different records.
 */
describe('GraphQL counts of a list of records: statements do not grow with the list size', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  const CONTACTS = 60;
  const RECORDS = 55;
  /** The expected count of each record, by plain id. */
  const contactsOfInbox = new Map<string, number>();
  const valuesOfField = new Map<string, number>();
  const subscribersOfSequence = new Map<string, number>();
  const add = (counts: Map<string, number>, id: number) => counts.set(String(id), (counts.get(String(id)) ?? 0) + 1);

  beforeAll(async () => {
    t = await createTestApp();
    ws = await t.workspace({ name: 'Counts' });
    const f = fixtures(t.db, ws.id);
    const inboxes: number[] = [];
    const fields: number[] = [];
    const sequences: number[] = [];
    for (let i = 0; i < RECORDS; i++) {
      inboxes.push(await f.inbox(`Inbox ${i}`));
      fields.push(await f.customField(`Field ${i}`));
      sequences.push(await f.sequence(`Sequence ${i}`));
    }
    for (const id of inboxes) contactsOfInbox.set(String(id), 0);
    for (const id of fields) valuesOfField.set(String(id), 0);
    for (const id of sequences) subscribersOfSequence.set(String(id), 0);
    // Contact i is in two inboxes, has a value of two fields and is subscribed to two sequences
    // (records i % 50 and (7i + 1) % 50, never the same): counts vary from record to record, and
    // records 50 to 54 have none (0).
    for (let i = 0; i < CONTACTS; i++) {
      const c = await f.contact({ email: `c${i}@example.com` });
      for (const k of new Set([i % 50, (i * 7 + 1) % 50])) {
        await f.contactInbox(c, inboxes[k]);
        add(contactsOfInbox, inboxes[k]);
        await f.fieldValue(c, fields[k], `value ${i}`);
        add(valuesOfField, fields[k]);
        await f.subscribe(c, sequences[k]);
        add(subscribersOfSequence, sequences[k]);
      }
    }
    // The first request with a token looks the token up (then cached): keep it out of the counts.
    expect((await gql(t, TagsDocument, {}, { token: ws.developerToken })).status).toBe(200);
  });
  afterAll(() => t.close());

  /** Runs `query` for each list size; answers the statements each cost, after `check` saw its records. */
  const statementsBySize = async <R>(query: string, sizes: number[], records: (data: any) => R[], check: (records: R[], size: number) => void) => {
    const counts: Record<number, number> = {};
    for (const size of sizes) {
      const res = await t.graphql(query, { size }, { token: ws.developerToken });
      expect(res.body.errors).toBeUndefined();
      check(records(res.body.data), size);
      counts[size] = statementsOf(res);
    }
    return counts;
  };

  it('Inbox.contactsCount under contacts -> inboxes -> inbox: the same statements for first 1, 10 and 50', async () => {
    const query = `query ($size: Int) { contacts(first: $size) { edges { node { inboxes { inbox { rawId contactsCount } } } } } }`;
    const counts = await statementsBySize(
      query,
      [1, 10, 50],
      (data) => data.contacts.edges.flatMap((e: any) => e.node.inboxes.map((m: any) => m.inbox)),
      (inboxes: { rawId: string; contactsCount: number }[], size) => {
        expect(inboxes.length).toBeGreaterThanOrEqual(size);
        for (const inbox of inboxes) expect(inbox.contactsCount).toBe(contactsOfInbox.get(inbox.rawId));
      },
    );
    // contacts, their inbox memberships, the inboxes, and one grouped count of their contacts.
    expect(counts).toEqual({ 1: 4, 10: 4, 50: 4 });
  });

  it('Inbox.contactsCount under inboxes -> data: the same statements for perPage 1, 10 and 50', async () => {
    const counts = await statementsBySize(
      'query ($size: Int!) { inboxes(perPage: $size) { data { rawId contactsCount } } }',
      [1, 10, 50],
      (data) => data.inboxes.data,
      (inboxes: { rawId: string; contactsCount: number }[], size) => {
        expect(inboxes).toHaveLength(size);
        for (const inbox of inboxes) expect(inbox.contactsCount).toBe(contactsOfInbox.get(inbox.rawId));
      },
    );
    // The page's total and its rows, and one grouped count for all of them.
    expect(counts).toEqual({ 1: 3, 10: 3, 50: 3 });
  });

  it('CustomField.valuesCount under customFields -> data: the same statements for perPage 1, 10 and 50', async () => {
    const counts = await statementsBySize(
      'query ($size: Int!) { customFields(perPage: $size) { data { rawId valuesCount } } }',
      [1, 10, 50],
      (data) => data.customFields.data,
      (fields: { rawId: string; valuesCount: number }[], size) => {
        expect(fields).toHaveLength(size);
        for (const field of fields) expect(field.valuesCount).toBe(valuesOfField.get(field.rawId));
      },
    );
    // The page's total and its rows, and one grouped count for all of them.
    expect(counts).toEqual({ 1: 3, 10: 3, 50: 3 });
  });

  it('Sequence.subscribersCount under sequences -> data: the same statements for perPage 1, 10 and 50', async () => {
    const counts = await statementsBySize(
      'query ($size: Int!) { sequences(perPage: $size) { data { rawId subscribersCount } } }',
      [1, 10, 50],
      (data) => data.sequences.data,
      (sequences: { rawId: string; subscribersCount: number }[], size) => {
        expect(sequences).toHaveLength(size);
        for (const sequence of sequences) expect(sequence.subscribersCount).toBe(subscribersOfSequence.get(sequence.rawId));
      },
    );
    // The page's total and its rows, and one grouped count for all of them.
    expect(counts).toEqual({ 1: 3, 10: 3, 50: 3 });
  });
});

/** DynamicImage.customField loads through a DataLoader: one statement for every image of a page. */
describe('GraphQL DynamicImage.customField: statements do not grow with the page size', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  /** The expected field name of each image, by plain id (null: the image has none). */
  const fieldOfImage = new Map<string, string | null>();

  beforeAll(async () => {
    t = await createTestApp();
    ws = await t.workspace({ name: 'Images' });
    const f = fixtures(t.db, ws.id);
    const fields: number[] = [];
    for (let i = 0; i < 20; i++) fields.push(await f.customField(`Field ${i}`));
    // 55 images: every seventh without a field, the others on 20 different fields.
    for (let i = 0; i < 55; i++) {
      const field = i % 7 === 0 ? null : fields[i % 20];
      const id = await f.dynamicImage(`Image ${i}`, `2026-11-01T10:${String(i).padStart(2, '0')}:00.000Z`, { customFieldId: field });
      fieldOfImage.set(String(id), field === null ? null : `Field ${i % 20}`);
    }
    expect((await gql(t, TagsDocument, {}, { token: ws.developerToken })).status).toBe(200);
  });
  afterAll(() => t.close());

  it('dynamicImages(perPage) { customField }: the same statements for perPage 1, 10 and 50', async () => {
    const counts: Record<number, number> = {};
    for (const size of [1, 10, 50]) {
      const res = await t.graphql('query ($size: Int!) { dynamicImages(perPage: $size) { data { rawId customField { name } } } }', { size }, { token: ws.developerToken });
      expect(res.body.errors).toBeUndefined();
      const images = (res.body.data as any).dynamicImages.data as { rawId: string; customField: { name: string } | null }[];
      expect(images).toHaveLength(size);
      for (const image of images) expect(image.customField?.name ?? null).toBe(fieldOfImage.get(image.rawId));
      counts[size] = statementsOf(res);
    }
    // The page's total and its rows, and one statement for the fields of all of them.
    expect(counts).toEqual({ 1: 3, 10: 3, 50: 3 });
  });
});

/**
 * Lead-ad automations with their mapped custom fields, tags and sequences, and connected pages with
 * their forms: each relation one DataLoader batch, whatever the list size.
 */
describe('GraphQL lead-ad automations and pages: statements do not grow with the list size', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  const RECORDS = 55;

  beforeAll(async () => {
    t = await createTestApp();
    ws = await t.workspace({ name: 'Lead ads' });
    const f = fixtures(t.db, ws.id);
    const fields = [await f.customField('Company'), await f.customField('Phone', 'phone')];
    const tags = [await f.tag('vip'), await f.tag('lead'), await f.tag('webinar')];
    const sequences = [await f.sequence('Welcome'), await f.sequence('Nurture')];
    // Automation i answers form i of page i; pages have two forms each.
    for (let i = 0; i < RECORDS; i++) {
      const pageId = String(5_550_000 + i);
      const page = await f.leadPage(pageId, `Page ${i}`);
      await f.leadForm(page, `${pageId}1`, `Form ${i}`);
      await f.leadForm(page, `${pageId}2`, `Form ${i} (archived)`, { status: 'archived' });
      await f.leadAd(`Automation ${i}`, {
        pageId,
        formIds: [`${pageId}1`],
        fieldMappings: [{ questionKey: 'company', customFieldId: fields[i % 2] }],
        tagIds: [tags[i % 3], tags[(i + 1) % 3]],
        sequenceIds: [sequences[i % 2]],
      });
    }
    // The first request with a token looks the token up (then cached): keep it out of the counts.
    expect((await gql(t, TagsDocument, {}, { token: ws.developerToken })).status).toBe(200);
  });
  afterAll(() => t.close());

  const statementsBySize = async (query: string, list: (data: any) => any[], check: (item: any) => void) => {
    const counts: Record<number, number> = {};
    for (const size of [1, 10, 50]) {
      const res = await t.graphql(query, { size }, { token: ws.developerToken });
      expect(res.body.errors).toBeUndefined();
      const items = list(res.body.data);
      expect(items).toHaveLength(size);
      items.forEach(check);
      counts[size] = statementsOf(res);
    }
    return counts;
  };

  it('leadAdAutomations -> fieldMappings.customField, tags, sequences: the same statements for perPage 1, 10 and 50', async () => {
    const counts = await statementsBySize(
      'query ($size: Int!) { leadAdAutomations(perPage: $size) { data { name fieldMappings { questionKey customField { name } } tags { name } sequences { name } } } }',
      (data) => data.leadAdAutomations.data,
      (a) => {
        const i = Number(a.name.split(' ')[1]);
        expect(a.fieldMappings).toEqual([{ questionKey: 'company', customField: { name: i % 2 ? 'Phone' : 'Company' } }]);
        expect(a.tags.map((x: { name: string }) => x.name)).toEqual([['vip', 'lead', 'webinar'][i % 3], ['vip', 'lead', 'webinar'][(i + 1) % 3]]);
        expect(a.sequences).toEqual([{ name: i % 2 ? 'Nurture' : 'Welcome' }]);
      },
    );
    // The page's total and its rows; mappings and their fields; tag ids and tags; sequence ids and sequences.
    expect(counts).toEqual({ 1: 8, 10: 8, 50: 8 });
  });

  it('leadPages -> forms: the same statements for perPage 1, 10 and 50', async () => {
    const counts = await statementsBySize(
      'query ($size: Int!) { leadPages(perPage: $size) { data { rawId formsCount forms { rawId status } } } }',
      (data) => data.leadPages.data,
      (p) => {
        expect(p.formsCount).toBe(2);
        expect(p.forms).toEqual([{ rawId: `${p.rawId}1`, status: 'active' }, { rawId: `${p.rawId}2`, status: 'archived' }]);
      },
    );
    // The page's total and its rows (with their form counts), and one statement for the forms of all of them.
    expect(counts).toEqual({ 1: 3, 10: 3, 50: 3 });
  });
});

describe('GraphQL channel posts: statements do not grow with the page size', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  const POSTS = 55;

  beforeAll(async () => {
    t = await createTestApp();
    ws = await t.workspace({ name: 'Posts' });
    const f = fixtures(t.db, ws.id);
    const inboxes = [await f.inbox('Account A', 'photo'), await f.inbox('Account B', 'photo'), await f.inbox('Account C', 'photo')];
    const kinds = ['published', 'ads', 'reels'] as const;
    for (let i = 0; i < POSTS; i++) {
      await f.channelPost('photo', inboxes[i % 3], { id: `1789${String(i).padStart(4, '0')}`, kind: kinds[i % 3], postedAt: new Date(Date.UTC(2026, 10, 1, 0, i)).toISOString() });
    }
    // Every post has the all-posts automation and the automation of its kind; every third one is picked by id too.
    await f.commentAutomation('photo', 'Every medium');
    for (const kind of kinds) await f.commentAutomation('photo', `Only ${kind}`, { post: { type: kind, value: [] } });
    const picked = Array.from({ length: POSTS }, (_, i) => i).filter((i) => i % 3 === 0).map((i) => `1789${String(i).padStart(4, '0')}`);
    await f.commentAutomation('photo', 'Picked', { post: { type: 'postIds', value: picked } });
    expect((await gql(t, TagsDocument, {}, { token: ws.developerToken })).status).toBe(200);
  });
  afterAll(() => t.close());

  it('channelPosts -> inbox, automations: the same statements for perPage 1, 10 and 50', async () => {
    const query = 'query ($size: Int!) { channelPosts(channel: photo, perPage: $size) { data { id kind inbox { rawId name } automations { name } } } }';
    const counts: Record<number, number> = {};
    for (const size of [1, 10, 50]) {
      const res = await t.graphql(query, { size }, { token: ws.developerToken });
      expect(res.body.errors).toBeUndefined();
      const posts = res.body.data.channelPosts.data;
      expect(posts).toHaveLength(size);
      for (const p of posts) {
        const i = Number(p.id.slice(4));
        expect(p.inbox.name).toBe(`Account ${'ABC'[i % 3]}`);
        expect(p.automations.map((a: { name: string }) => a.name).sort()).toEqual(['Every medium', `Only ${p.kind}`, ...(i % 3 === 0 ? ['Picked'] : [])].sort());
      }
      counts[size] = statementsOf(res);
    }
    // The page's total and its rows; the inboxes; the channel's automations.
    expect(counts).toEqual({ 1: 4, 10: 4, 50: 4 });
  });
});

describe('GraphQL outbox: statements do not grow with the page size', () => {
  let t: TestApp;
  let ws: TestWorkspace;

  beforeAll(async () => {
    t = await createTestApp();
    ws = await t.workspace({ name: 'Outbox' });
    const f = fixtures(t.db, ws.id);
    const inbox = await f.inbox('Photo account', 'photo');
    const contacts = [];
    for (let i = 0; i < 20; i++) contacts.push(await f.contact({ email: `o${i}@example.com` }));
    // 55 replies to 20 different contacts (every fifth one to nobody known), through the sandbox adapter.
    const adapter = sandboxAdapter(t.db);
    for (let i = 0; i < 55; i++) {
      await adapter.sendPrivateReply({
        workspaceId: ws.id,
        inbox: { id: inbox, channel: 'photo', sourceId: '17841400000000001' },
        commentId: `c${i}`,
        contactId: i % 5 === 0 ? null : contacts[i % 20],
        content: { type: 'text', text: `Reply ${i}` },
      });
    }
    expect((await gql(t, TagsDocument, {}, { token: ws.developerToken })).status).toBe(200);
  });
  afterAll(() => t.close());

  it('outbox -> contact: the same statements for perPage 1, 10 and 50', async () => {
    const counts: Record<number, number> = {};
    for (const size of [1, 10, 50]) {
      const res = await t.graphql('query ($size: Int!) { outbox(perPage: $size) { data { commentId contactId contact { rawId email } } } }', { size }, { token: ws.developerToken });
      expect(res.body.errors).toBeUndefined();
      const entries = res.body.data.outbox.data as { commentId: string; contactId: string | null; contact: { rawId: string; email: string } | null }[];
      expect(entries).toHaveLength(size);
      for (const e of entries) {
        const i = Number(e.commentId.slice(1));
        expect(e.contact === null ? null : e.contact.rawId).toBe(i % 5 === 0 ? null : e.contactId);
        if (e.contact) expect(e.contact.email).toBe(`o${i % 20}@example.com`);
      }
      counts[size] = statementsOf(res);
    }
    // The page's total and its rows; the contacts of all of them.
    expect(counts).toEqual({ 1: 3, 10: 3, 50: 3 });
  });
});

describe('GraphQL Contact.messages on a page of contacts: statements do not grow with the page size', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  const CONTACTS = 40;

  beforeAll(async () => {
    t = await createTestApp();
    ws = await t.workspace();
    const f = fixtures(t.db, ws.id);
    const inbox = await f.inbox('Photo', 'photo');
    for (let i = 0; i < CONTACTS; i++) {
      const c = await f.contact({ email: `c${i}@example.com` });
      const conversation = await f.conversation({ contactId: c, inboxId: inbox });
      // Contact i has i % 4 messages: some have none, some more than a page.
      for (let m = 0; m < i % 4; m++) {
        await insertMessage(t.db, ws.id, { conversationId: conversation, contactId: c, inboxId: inbox, direction: m % 2 ? 'outgoing' : 'incoming', externalId: `mid-${i}-${m}`, text: `${i}.${m}`, status: m % 2 ? 'sent' : 'received' });
      }
    }
    // The first request with a token looks the token up (then cached): keep it out of the counts.
    expect((await t.request('GET', '/v1/tags', { token: ws.developerToken })).status).toBe(200);
  });
  afterAll(() => t?.close());

  it('each contact gets its own newest messages, for first 1, 10 and 40 contacts at the same cost', async () => {
    const counts: Record<number, number> = {};
    for (const first of [1, 10, 40]) {
      const res = await gql(t, ContactsWithMessagesDocument, { first, messagesFirst: 2 }, { token: ws.developerToken });
      expect(res.body.errors).toBeUndefined();
      const edges = res.body.data!.contacts.edges;
      expect(edges).toHaveLength(first);
      for (const { node } of edges) {
        const i = Number(/^c(\d+)@/.exec((await t.request('GET', `/v1/contacts/${node.rawId}`, { token: ws.developerToken })).body.email)![1]);
        const expected = Array.from({ length: i % 4 }, (_, m) => `${i}.${m}`).reverse();
        expect(node.messages.edges.map((e) => e.node.text)).toEqual(expected.slice(0, 2));
        expect(node.messages.edges.every((e) => e.node.contactId === node.rawId)).toBe(true);
        expect(node.messages.pageInfo.hasNextPage).toBe(expected.length > 2);
      }
      counts[first] = statementsOf(res);
    }
    // The contacts, and their messages.
    expect(counts).toEqual({ 1: 2, 10: 2, 40: 2 });
    // The same page with a filter: still one statement for the messages of every contact.
    const filtered = await gql(t, ContactsWithMessagesDocument, { first: 40, messagesFirst: 5, direction: 'outgoing' }, { token: ws.developerToken });
    expect(statementsOf(filtered)).toBe(2);
    expect(filtered.body.data!.contacts.edges.flatMap((e) => e.node.messages.edges.map((m) => m.node.text)).every((x) => Number(x!.split('.')[1]) % 2 === 1)).toBe(true);
  });
});
