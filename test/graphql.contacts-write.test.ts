import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelopes, unlimited } from './support/endpoints.js';
import { fixtures, T0 } from './support/fixtures.js';
import { fieldError, invalidInput, statementsOf } from './support/graphql.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { digits, forbidden, isoNow, validationError } from './support/rest.js';

const globalId = (type: string, id: number | string) => Buffer.from(`${type}:${id}`).toString('base64');
const notFoundError = (path: string[], resource: string, data: Record<string, unknown> = {}) =>
  fieldError(path, { ...envelopes.notFound, data: { resource, ...data } }, `${resource} not found`);

const CONTACT_FIELDS = `rawId email phoneNumber firstName lastName fullName gender avatar locale timezone country state city location ref emailOptIn blockedAt createdAt updatedAt`;

/** The contact mutations, notes, inboxes and token as GraphQL, over the REST services. */
describe('GraphQL: contact record, notes, inboxes and token', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  const gql = (query: string, variables: Record<string, unknown> = {}, token = ws.developerToken) => t.graphql(query, variables, { token });

  /** The selected contact fields of a fixture contact: override what differs. */
  const contactFields = (id: number, fields: Record<string, unknown> = {}) => ({
    rawId: String(id),
    email: null,
    phoneNumber: null,
    firstName: null,
    lastName: null,
    fullName: '',
    gender: 'unknown',
    avatar: null,
    locale: null,
    timezone: null,
    country: null,
    state: null,
    city: null,
    location: null,
    ref: null,
    emailOptIn: false,
    blockedAt: null,
    createdAt: T0,
    updatedAt: T0,
    ...fields,
  });

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
  });
  afterAll(() => t.close());

  describe('contact mutations', () => {
    const UPDATE = `mutation ($identifier: String!, $input: ContactFieldsInput!) { updateContact(identifier: $identifier, input: $input) { ${CONTACT_FIELDS} } }`;
    const REPLACE = `mutation ($identifier: String!, $input: ContactFieldsInput!) { replaceContact(identifier: $identifier, input: $input) { ${CONTACT_FIELDS} } }`;

    it('updateContact changes the fields given (null clears one), as PATCH does', async () => {
      const id = await fixtures(t.db, ws.id).contact({ email: 'ada@example.com', phone: '+15550100', firstName: 'Ada' });
      const res = await gql(UPDATE, { identifier: globalId('Contact', id), input: { lastName: 'Lovelace', phoneNumber: null, timezone: 'europe/london', country: 'gb', gender: 'female', emailOptIn: true, city: '' } });
      expect(res.body).toEqual({
        data: {
          updateContact: contactFields(id, {
            email: 'ada@example.com',
            firstName: 'Ada',
            lastName: 'Lovelace',
            fullName: 'Ada Lovelace',
            gender: 'female',
            timezone: 'Europe/London',
            country: 'GB',
            emailOptIn: true,
            updatedAt: isoNow(),
          }),
        },
      });
      const rest = await t.request('GET', `/v1/contacts/${id}`, { token: ws.developerToken });
      expect(rest.body).toMatchObject({ lastName: 'Lovelace', phoneNumber: null, timezone: 'Europe/London', country: 'GB' });
    });

    it('updateContact: invalid fields are 422 at the input path; duplicates and the email-or-phone rule as on REST', async () => {
      const f = fixtures(t.db, ws.id);
      const id = await f.contact({ email: 'rules@example.com' });
      await f.contact({ email: 'taken@example.com' });
      expect((await gql(UPDATE, { identifier: String(id), input: { country: 'Narnia', avatar: 'ftp://x.example/a.png' } })).body).toEqual({
        data: null,
        errors: [
          invalidInput(
            ['updateContact'],
            [
              { message: 'avatar must be an http or https URL', path: ['input', 'avatar'] },
              { message: 'country must be an ISO 3166-1 alpha-2 code such as DE', path: ['input', 'country'] },
            ],
            'avatar must be an http or https URL (and 1 more issue)',
          ),
        ],
      });
      expect((await gql(UPDATE, { identifier: String(id), input: { email: 'TAKEN@example.com' } })).body).toEqual({
        data: null,
        errors: [fieldError(['updateContact'], validationError({ field: 'email', reason: 'alreadyExists' }), 'Another contact already has this email')],
      });
      expect((await gql(UPDATE, { identifier: String(id), input: { email: null } })).body).toEqual({
        data: null,
        errors: [
          fieldError(['updateContact'], validationError({ reason: 'emailOrPhoneRequired' }), 'A contact keeps an email or a phone number: this change would leave it with neither'),
        ],
      });
      expect((await gql(UPDATE, { identifier: String(id), input: { firstName: 'X' } }, other.developerToken)).body).toEqual({
        data: null,
        errors: [notFoundError(['updateContact'], 'Contact')],
      });
      const readOnly = await t.token(ws.id, { kind: 'developer', readOnly: true });
      expect((await gql(UPDATE, { identifier: String(id), input: { firstName: 'X' } }, readOnly)).body).toEqual({
        data: null,
        errors: [fieldError(['updateContact'], forbidden({ reason: 'readOnlyToken' }), 'This token is read-only: mutations need a full-permission token')],
      });
      expect((await t.request('GET', `/v1/contacts/${id}`, { token: ws.developerToken })).body.updatedAt).toBe(T0);
    });

    it('replaceContact clears every field not given (or null), as PUT does', async () => {
      const id = await fixtures(t.db, ws.id).contact({ email: 'replace@example.com', phone: '+15550111', firstName: 'Old' });
      await gql(UPDATE, { identifier: String(id), input: { city: 'Paris', gender: 'male' } });
      const res = await gql(REPLACE, { identifier: 'replace@example.com', input: { email: 'replace@example.com', lastName: 'New', city: null } });
      expect(res.body).toEqual({ data: { replaceContact: contactFields(id, { email: 'replace@example.com', lastName: 'New', fullName: 'New', updatedAt: isoNow() }) } });
    });

    it('upsertContact updates what the identifier finds or creates from it: created says which', async () => {
      const UPSERT = `mutation ($identifier: String!, $input: ContactFieldsInput!) { upsertContact(identifier: $identifier, input: $input) { created contact { rawId email phoneNumber firstName } } }`;
      const created = await gql(UPSERT, { identifier: 'email:fresh@example.com', input: { firstName: 'Fresh', phoneNumber: '+15550222' } });
      expect(created.body).toEqual({ data: { upsertContact: { created: true, contact: { rawId: digits(), email: 'fresh@example.com', phoneNumber: '+15550222', firstName: 'Fresh' } } } });
      const id = created.body.data.upsertContact.contact.rawId;
      const updated = await gql(UPSERT, { identifier: '+15550222', input: { firstName: 'Again' } });
      expect(updated.body).toEqual({ data: { upsertContact: { created: false, contact: { rawId: id, email: 'fresh@example.com', phoneNumber: '+15550222', firstName: 'Again' } } } });
      expect((await gql(UPSERT, { identifier: 'id:424242', input: {} })).body).toEqual({ data: null, errors: [notFoundError(['upsertContact'], 'Contact')] });
      expect((await gql(UPSERT, { identifier: 'email:one@example.com', input: { email: 'two@example.com' } })).body).toEqual({
        data: null,
        errors: [
          fieldError(
            ['upsertContact'],
            validationError({ field: 'email', reason: 'identifierMismatch' }),
            "The new contact's email comes from the identifier: the input may not give it another value",
          ),
        ],
      });
    });

    it('blockContact and unblockContact set and clear blockedAt; deleteContact deletes', async () => {
      const id = await fixtures(t.db, ws.id).contact({ email: 'block@example.com' });
      const BLOCK = `mutation ($identifier: String!) { blockContact(identifier: $identifier) { rawId blockedAt } }`;
      const blocked = await gql(BLOCK, { identifier: String(id) });
      expect(blocked.body).toEqual({ data: { blockContact: { rawId: String(id), blockedAt: isoNow() } } });
      expect((await gql(BLOCK, { identifier: String(id) })).body).toEqual(blocked.body);
      expect((await gql(`mutation { unblockContact(identifier: "block@example.com") { rawId blockedAt } }`)).body).toEqual({
        data: { unblockContact: { rawId: String(id), blockedAt: null } },
      });

      const DELETE = `mutation ($identifier: String!) { deleteContact(identifier: $identifier) { success } }`;
      expect((await gql(DELETE, { identifier: String(id) }, other.developerToken)).body).toEqual({ data: null, errors: [notFoundError(['deleteContact'], 'Contact')] });
      expect((await gql(DELETE, { identifier: globalId('Contact', id) })).body).toEqual({ data: { deleteContact: { success: true } } });
      expect((await gql(`query ($identifier: String!) { contact(identifier: $identifier) { rawId } }`, { identifier: String(id) })).body).toEqual({
        data: null,
        errors: [notFoundError(['contact'], 'Contact')],
      });
    });

    it('bulkDeleteContacts takes global or plain ids; unknown ones are 404 with data.ids and nothing is deleted', async () => {
      const f = fixtures(t.db, ws.id);
      const [a, b] = [await f.contact({ email: 'bulk-a@example.com' }), await f.contact({ email: 'bulk-b@example.com' })];
      const theirs = await fixtures(t.db, other.id).contact({ email: 'bulk-theirs@example.com' });
      const BULK = `mutation ($ids: [ID!]!) { bulkDeleteContacts(contactIds: $ids) { success affected } }`;
      expect((await gql(BULK, { ids: [String(a), String(theirs)] })).body).toEqual({
        data: null,
        errors: [fieldError(['bulkDeleteContacts'], { ...envelopes.notFound, data: { resource: 'Contact', ids: [String(theirs)] } }, `Contact not found: ${theirs}`)],
      });
      expect((await gql(BULK, { ids: [globalId('Contact', a), String(b)] })).body).toEqual({ data: { bulkDeleteContacts: { success: true, affected: 2 } } });
      expect((await gql(BULK, { ids: [] })).body).toEqual({
        data: null,
        errors: [invalidInput(['bulkDeleteContacts'], [{ message: 'contactIds must hold at least 1 id', path: ['contactIds'] }], 'contactIds must hold at least 1 id')],
      });
      expect(await t.db.selectFrom('contacts').select('id').where('id', '=', theirs).executeTakeFirst()).toEqual({ id: theirs });
    });

    it('createContact takes gender and joins the inbox inboxId names (a global or plain id)', async () => {
      const inbox = await fixtures(t.db, ws.id).inbox('Joined', 'chat');
      const CREATE = `mutation ($input: CreateContactInput!) { createContact(input: $input) { email gender inboxes { inboxId channel } } }`;
      expect((await gql(CREATE, { input: { email: 'joins@example.com', gender: 'female', inboxId: globalId('Inbox', inbox) } })).body).toEqual({
        data: { createContact: { email: 'joins@example.com', gender: 'female', inboxes: [{ inboxId: String(inbox), channel: 'chat' }] } },
      });
      expect((await gql(CREATE, { input: { email: 'nowhere@example.com', inboxId: '424242' } })).body).toEqual({ data: null, errors: [notFoundError(['createContact'], 'Inbox')] });
      expect((await gql(CREATE, { input: { email: '', phoneNumber: '+15550333', channel: 'net', inboxId: String(inbox) } })).body).toEqual({
        data: null,
        errors: [fieldError(['createContact'], validationError({ field: 'channel', reason: 'inboxChannelMismatch' }), 'channel must be the channel of the inbox inboxId names')],
      });
    });
  });

  describe('notes', () => {
    it('createContactNote, updateContactNote, deleteContactNote and contactNotes (newest first, paged)', async () => {
      const id = await fixtures(t.db, ws.id).contact({ email: 'notes@example.com' });
      const CREATE = `mutation ($identifier: String!, $text: String!) { createContactNote(identifier: $identifier, text: $text) { rawId text contactId createdById createdAt } }`;
      const byWorkspace = await gql(CREATE, { identifier: String(id), text: ' First ' });
      expect(byWorkspace.body).toEqual({ data: { createContactNote: { rawId: digits(), text: 'First', contactId: String(id), createdById: null, createdAt: isoNow() } } });
      const byUser = await gql(CREATE, { identifier: 'notes@example.com', text: 'Second' }, ws.userToken);
      expect(byUser.body.data.createContactNote.createdById).toBe(String(ws.created.owner.id));
      const first = byWorkspace.body.data.createContactNote.rawId;
      const second = byUser.body.data.createContactNote.rawId;
      // Same creation millisecond or not, newest first: the second note leads.
      await t.db.updateTable('contact_notes').set({ created_at: T0 }).where('id', '=', Number(first)).execute();

      const LIST = `query ($identifier: String!, $page: SafeInt!, $perPage: Int!) { contactNotes(identifier: $identifier, page: $page, perPage: $perPage) { pageCount data { rawId text } } }`;
      expect((await gql(LIST, { identifier: String(id), page: 1, perPage: 1 })).body).toEqual({ data: { contactNotes: { pageCount: 2, data: [{ rawId: second, text: 'Second' }] } } });

      const UPDATE = `mutation ($identifier: String!, $noteId: ID!, $text: String!) { updateContactNote(identifier: $identifier, noteId: $noteId, text: $text) { rawId text updatedAt } }`;
      expect((await gql(UPDATE, { identifier: String(id), noteId: globalId('ContactNote', first), text: 'Edited' })).body).toEqual({
        data: { updateContactNote: { rawId: first, text: 'Edited', updatedAt: isoNow() } },
      });
      expect((await gql(UPDATE, { identifier: String(id), noteId: first, text: '   ' })).body).toEqual({
        data: null,
        errors: [invalidInput(['updateContactNote'], [{ message: 'text must not be empty', path: ['text'] }], 'text must not be empty')],
      });
      const elsewhere = await fixtures(t.db, ws.id).contact({ email: 'elsewhere@example.com' });
      expect((await gql(UPDATE, { identifier: String(elsewhere), noteId: first, text: 'Hijack' })).body).toEqual({ data: null, errors: [notFoundError(['updateContactNote'], 'Note')] });

      const DELETE = `mutation ($identifier: String!, $noteId: ID!) { deleteContactNote(identifier: $identifier, noteId: $noteId) { success } }`;
      expect((await gql(DELETE, { identifier: String(id), noteId: second })).body).toEqual({ data: { deleteContactNote: { success: true } } });
      expect((await gql(DELETE, { identifier: String(id), noteId: second })).body).toEqual({ data: null, errors: [notFoundError(['deleteContactNote'], 'Note')] });
      expect((await gql(LIST, { identifier: String(id), page: 1, perPage: 50 })).body).toEqual({ data: { contactNotes: { pageCount: 1, data: [{ rawId: first, text: 'Edited' }] } } });
    });
  });

  describe('inboxes, channels, token', () => {
    it('inboxes lists a page (optionally of one channel) with contactsCount; channels counts per channel', async () => {
      const fresh = await t.workspace({ name: 'Inboxes' });
      const f = fixtures(t.db, fresh.id);
      const web = await f.inbox('Web', 'chat');
      const page = await f.inbox('Page', 'net');
      const shop = await f.inbox('Shop', 'chat');
      for (let i = 0; i < 3; i++) await f.contactInbox(await f.contact({ email: `c${i}@example.com` }), i === 2 ? page : web);
      // Another workspace's contact in this workspace's inbox is not counted.
      await f.contactInbox(await fixtures(t.db, other.id).contact({ email: 'outsider@example.com' }), shop);

      const LIST = `query ($page: SafeInt!, $perPage: Int!, $channel: String) { inboxes(page: $page, perPage: $perPage, channel: $channel) { pageCount data { rawId name channel status contactsCount } } }`;
      const all = await gql(LIST, { page: 1, perPage: 50 }, fresh.developerToken);
      expect(all.body).toEqual({
        data: {
          inboxes: {
            pageCount: 1,
            data: [
              { rawId: String(web), name: 'Web', channel: 'chat', status: 'active', contactsCount: 2 },
              { rawId: String(page), name: 'Page', channel: 'net', status: 'active', contactsCount: 1 },
              { rawId: String(shop), name: 'Shop', channel: 'chat', status: 'active', contactsCount: 0 },
            ],
          },
        },
      });
      const one = await gql(LIST, { page: 1, perPage: 1, channel: 'net' }, fresh.developerToken);
      expect(one.body).toEqual({ data: { inboxes: { pageCount: 1, data: [{ rawId: String(page), name: 'Page', channel: 'net', status: 'active', contactsCount: 1 }] } } });
      // contactsCount is one statement for the whole page: a page of three costs what a page of one
      // does (both after the token lookup is cached): count, page, contactsCount.
      expect(statementsOf(await gql(LIST, { page: 1, perPage: 50 }, fresh.developerToken))).toBe(3);
      expect(statementsOf(one)).toBe(3);

      expect((await gql(`{ channels { channel inboxCount contactCount } }`, {}, fresh.developerToken)).body).toEqual({
        data: {
          channels: [
            { channel: 'chat', inboxCount: 2, contactCount: 2 },
            { channel: 'net', inboxCount: 1, contactCount: 1 },
          ],
        },
      });
      const contactsOnly = await t.token(fresh.id, { kind: 'developer', scopes: ['contacts'] });
      expect((await gql(`{ channels { channel } }`, {}, contactsOnly)).body).toEqual({
        data: null,
        errors: [fieldError(['channels'], forbidden({ reason: 'missingScope', scope: 'inboxes' }), 'This token lacks the "inboxes" scope')],
      });
    });

    it("Inbox.contactsCount nested under a page of contacts: the same statements for first 1 and 20", async () => {
      const fresh = await t.workspace({ name: 'Nested counts' });
      const f = fixtures(t.db, fresh.id);
      const inboxes = [await f.inbox('A'), await f.inbox('B'), await f.inbox('C')];
      for (let i = 0; i < 20; i++) await f.contactInbox(await f.contact({ email: `n${i}@example.com` }), inboxes[i % 3]);
      const QUERY = `query ($first: Int!) { contacts(first: $first) { edges { node { inboxes { inbox { name contactsCount } } } } } }`;
      await gql(QUERY, { first: 1 }, fresh.developerToken); // the token lookup, then cached
      const counts: number[] = [];
      for (const first of [1, 20]) {
        const res = await gql(QUERY, { first }, fresh.developerToken);
        expect(res.body.errors).toBeUndefined();
        const seen = res.body.data.contacts.edges.flatMap((e: any) => e.node.inboxes.map((m: any) => m.inbox));
        expect(seen).toHaveLength(first);
        for (const inbox of seen) expect(inbox.contactsCount).toBe(({ A: 7, B: 7, C: 6 } as Record<string, number>)[inbox.name]);
        counts.push(statementsOf(res));
      }
      // contacts, memberships, their inboxes, the inboxes' counts.
      expect(counts).toEqual([4, 4]);
    });

    it('updateInbox renames or switches an inbox of the workspace; another workspace gets 404', async () => {
      const inbox = await fixtures(t.db, ws.id).inbox('Desk', 'chat');
      const UPDATE = `mutation ($id: ID!, $input: UpdateInboxInput!) { updateInbox(id: $id, input: $input) { rawId name status updatedAt } }`;
      expect((await gql(UPDATE, { id: globalId('Inbox', inbox), input: { name: ' Help desk ', status: 'inactive' } })).body).toEqual({
        data: { updateInbox: { rawId: String(inbox), name: 'Help desk', status: 'inactive', updatedAt: isoNow() } },
      });
      expect((await gql(UPDATE, { id: String(inbox), input: { name: null } })).body).toEqual({
        data: null,
        errors: [invalidInput(['updateInbox'], [{ message: 'Provide name or status', path: ['input'] }], 'input: Provide name or status')],
      });
      expect((await gql(UPDATE, { id: String(inbox), input: { name: 'Mine' } }, other.developerToken)).body).toEqual({ data: null, errors: [notFoundError(['updateInbox'], 'Inbox')] });
    });

    it('token describes the presented token to any token', async () => {
      const limited = await t.token(ws.id, { kind: 'developer', readOnly: true, scopes: ['tags'] });
      const res = await gql(`{ token { workspaceId kind scheme permission scopes createdAt } }`, {}, limited);
      expect(res.body).toEqual({
        data: { token: { workspaceId: String(ws.id), kind: 'developer', scheme: 'developerAccessToken', permission: 'read_only', scopes: ['tags'], createdAt: isoNow() } },
      });
      const user = await gql(`{ token { kind scheme scopes } }`, {}, ws.userToken);
      expect(user.body).toEqual({ data: { token: { kind: 'user', scheme: 'bearerAuth', scopes: null } } });
    });
  });
});
