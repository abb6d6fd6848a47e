import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelopes, unlimited } from './support/endpoints.js';
import { fixtures, T0 } from './support/fixtures.js';
import { fieldError, invalidInput, statementsOf } from './support/graphql.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { digits, forbidden, isoNow, notFound, validationError } from './support/rest.js';

const missing = (resource: string, ids: string[]) => ({ ...envelopes.notFound, data: { resource, ids } });

const TAG = 'id rawId name createdAt updatedAt deletedAt folderId workspaceId';
const SEQUENCE = 'id rawId name isActive createdAt updatedAt subscribersCount';

/** Tags and sequences as GraphQL queries and mutations: the same services, rules and errors as REST. */
describe('GraphQL tags and sequences', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let f: ReturnType<typeof fixtures>;
  let serial = 0;
  const tag = { vip: 0, lead: 0, churned: 0, theirs: 0 };
  const seq = { welcome: 0, promo: 0, theirs: 0 };
  let theirContact: number;

  const run = async (query: string, variables: Record<string, unknown> = {}, token = ws.developerToken) => {
    const res = await t.graphql(query, variables, { token });
    expect(res.status).toBe(200);
    return res.body;
  };
  const tagNode = (id: number | string, name: string, extra: Record<string, unknown> = {}) => ({
    id: encodeGlobalID('Tag', String(id)),
    rawId: String(id),
    name,
    createdAt: T0,
    updatedAt: T0,
    deletedAt: null,
    folderId: null,
    workspaceId: String(ws.id),
    ...extra,
  });
  const sequenceNode = (id: number | string, name: string, extra: Record<string, unknown> = {}) => ({
    id: encodeGlobalID('Sequence', String(id)),
    rawId: String(id),
    name,
    isActive: true,
    createdAt: T0,
    updatedAt: T0,
    subscribersCount: 0,
    ...extra,
  });
  const newContact = () => f.contact({ email: `g${++serial}@example.com` });
  const tagIdsOf = async (contactId: number) =>
    (await t.db.selectFrom('contact_tags').select('tag_id').where('contact_id', '=', contactId).orderBy('tag_id').execute()).map((r) => r.tag_id);
  const sequencesOf = async (contactId: number) =>
    (await t.db.selectFrom('sequence_subscriptions').select('sequence_id').where('contact_id', '=', contactId).orderBy('id').execute()).map((r) => r.sequence_id);

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
    f = fixtures(t.db, ws.id);
    tag.vip = await f.tag('VIP');
    tag.lead = await f.tag('lead');
    tag.churned = await f.tag('Churned', { deletedAt: '2026-10-01T00:00:00.000Z' });
    seq.welcome = await f.sequence('Welcome');
    seq.promo = await f.sequence('Promo');
    const of = fixtures(t.db, other.id);
    tag.theirs = await of.tag('Theirs');
    seq.theirs = await of.sequence('Theirs');
    theirContact = await of.contact({ email: 'theirs@example.com' });
  });
  afterAll(() => t.close());

  describe('tags', () => {
    it('tag(idOrName) finds a live tag by plain id, global id or name (case-insensitively)', async () => {
      const q = `query($idOrName: String!) { tag(idOrName: $idOrName) { ${TAG} } }`;
      for (const idOrName of [String(tag.vip), encodeGlobalID('Tag', String(tag.vip)), 'vip', 'VIP']) {
        expect(await run(q, { idOrName }, ws.userToken)).toEqual({ data: { tag: tagNode(tag.vip, 'VIP') } });
      }
      for (const idOrName of [String(tag.churned), 'Churned', String(tag.theirs), 'Theirs']) {
        expect(await run(q, { idOrName })).toEqual({ data: null, errors: [fieldError(['tag'], notFound('Tag'), 'Tag not found')] });
      }
    });

    it('createTag creates the tag POST /v1/tags would; a taken name is 422 validation naming the field', async () => {
      const q = `mutation($input: CreateTagInput!) { createTag(input: $input) { ${TAG} } }`;
      const res = await run(q, { input: { name: '  Webinar ' } });
      expect(res).toEqual({
        data: { createTag: { ...tagNode('0', 'Webinar'), id: expect.any(String), rawId: digits(), createdAt: isoNow(), updatedAt: isoNow() } },
      });
      const rawId = res.data.createTag.rawId;
      expect(res.data.createTag.id).toBe(encodeGlobalID('Tag', rawId));
      expect((await t.request('GET', `/v1/tags/${rawId}`, { token: ws.developerToken })).body.name).toBe('Webinar');

      expect(await run(q, { input: { name: 'WEBINAR' } })).toEqual({
        data: null,
        errors: [fieldError(['createTag'], validationError({ field: 'name', reason: 'alreadyExists' }), 'This name is already taken in the workspace')],
      });
      expect(await run(q, { input: { name: ' ' } })).toEqual({
        data: null,
        errors: [invalidInput(['createTag'], [{ message: 'name must not be empty', path: ['input', 'name'] }], 'name must not be empty')],
      });
    });

    it('updateTag renames; deleteTag soft-deletes and answers { success: true }; both 404 for a deleted or foreign tag', async () => {
      const id = await f.tag('Old name');
      const update = `mutation($id: ID!, $name: String!) { updateTag(id: $id, input: { name: $name }) { ${TAG} } }`;
      expect(await run(update, { id: encodeGlobalID('Tag', String(id)), name: 'New name' })).toEqual({
        data: { updateTag: tagNode(id, 'New name', { updatedAt: isoNow() }) },
      });
      const del = 'mutation($id: ID!) { deleteTag(id: $id) { success } }';
      expect(await run(del, { id: String(id) })).toEqual({ data: { deleteTag: { success: true } } });
      const row = await t.db.selectFrom('tags').select(['deleted_at']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.deleted_at).toEqual(isoNow());
      for (const target of [String(id), String(tag.theirs)]) {
        expect(await run(del, { id: target })).toEqual({ data: null, errors: [fieldError(['deleteTag'], notFound('Tag'), 'Tag not found')] });
        expect(await run(update, { id: target, name: 'x' })).toEqual({ data: null, errors: [fieldError(['updateTag'], notFound('Tag'), 'Tag not found')] });
      }
      expect(await run(del, { id: encodeGlobalID('Sequence', '1') })).toEqual({
        data: null,
        errors: [invalidInput(['deleteTag'], [{ message: 'must be a Tag id, but this is the global id of a Sequence', path: ['id'] }], 'id: must be a Tag id, but this is the global id of a Sequence')],
      });
    });

    it('addContactTags, removeContactTags, setContactTags and addContactTagsByName change the contact as REST does', async () => {
      const c = await newContact();
      const add = 'mutation($identifier: String!, $tagIds: [ID!]!) { addContactTags(identifier: $identifier, tagIds: $tagIds) { success } }';
      const remove = 'mutation($identifier: String!, $tagIds: [ID!]!) { removeContactTags(identifier: $identifier, tagIds: $tagIds) { success } }';
      const set = 'mutation($identifier: String!, $tagIds: [ID!]!) { setContactTags(identifier: $identifier, tagIds: $tagIds) { success } }';
      const byName = 'mutation($identifier: String!, $names: [String!]!) { addContactTagsByName(identifier: $identifier, names: $names) { success } }';

      expect(await run(add, { identifier: encodeGlobalID('Contact', String(c)), tagIds: [encodeGlobalID('Tag', String(tag.vip)), String(tag.lead)] })).toEqual({
        data: { addContactTags: { success: true } },
      });
      expect(await tagIdsOf(c)).toEqual([tag.vip, tag.lead]);
      expect(await run(remove, { identifier: String(c), tagIds: [String(tag.vip)] })).toEqual({ data: { removeContactTags: { success: true } } });
      expect(await tagIdsOf(c)).toEqual([tag.lead]);
      expect(await run(set, { identifier: `id:${c}`, tagIds: [String(tag.vip)] })).toEqual({ data: { setContactTags: { success: true } } });
      expect(await tagIdsOf(c)).toEqual([tag.vip]);
      expect(await run(byName, { identifier: String(c), names: ['vip', 'Brand new'] })).toEqual({ data: { addContactTagsByName: { success: true } } });
      const listed = await run(`query($identifier: String!) { contact(identifier: $identifier) { tags { name } } }`, { identifier: String(c) });
      expect(listed).toEqual({ data: { contact: { tags: [{ name: 'Brand new' }, { name: 'VIP' }] } } });
      expect(await run(set, { identifier: String(c), tagIds: [] })).toEqual({ data: { setContactTags: { success: true } } });
      expect(await tagIdsOf(c)).toEqual([]);
    });

    it('unknown or deleted tag ids are 404 with data.ids and change nothing; bad input is 422 at its path', async () => {
      const c = await newContact();
      await f.tagContact(c, tag.vip);
      const add = 'mutation($identifier: String!, $tagIds: [ID!]!) { addContactTags(identifier: $identifier, tagIds: $tagIds) { success } }';
      expect(await run(add, { identifier: String(c), tagIds: [String(tag.lead), String(tag.churned), String(tag.theirs)] })).toEqual({
        data: null,
        errors: [fieldError(['addContactTags'], missing('Tag', [String(tag.churned), String(tag.theirs)]), `Tag not found: ${tag.churned}, ${tag.theirs}`)],
      });
      expect(await tagIdsOf(c)).toEqual([tag.vip]);
      expect(await run(add, { identifier: String(theirContact), tagIds: [String(tag.theirs)] })).toEqual({
        data: null,
        errors: [fieldError(['addContactTags'], notFound('Contact'), 'Contact not found')],
      });
      expect(await run(add, { identifier: String(c), tagIds: [] })).toEqual({
        data: null,
        errors: [invalidInput(['addContactTags'], [{ message: 'tagIds must hold at least 1 id', path: ['tagIds'] }], 'tagIds must hold at least 1 id')],
      });
      expect(await run(add, { identifier: String(c), tagIds: ['vip'] })).toEqual({
        data: null,
        errors: [invalidInput(['addContactTags'], [{ message: 'must be a digit string', path: ['tagIds', 0] }], 'tagIds[0]: must be a digit string')],
      });
    });

    it('bulkAddContactTags answers {success, affected}; unknown contacts are 404 with data.ids', async () => {
      const [a, b] = [await newContact(), await newContact()];
      await f.tagContact(b, tag.lead);
      const q = 'mutation($contactIds: [ID!]!, $tagIds: [ID!]!) { bulkAddContactTags(contactIds: $contactIds, tagIds: $tagIds) { success affected } }';
      expect(await run(q, { contactIds: [String(a), encodeGlobalID('Contact', String(b))], tagIds: [String(tag.lead)] })).toEqual({
        data: { bulkAddContactTags: { success: true, affected: 1 } },
      });
      expect(await tagIdsOf(a)).toEqual([tag.lead]);
      expect(await run(q, { contactIds: [String(a), String(theirContact)], tagIds: [String(tag.vip)] })).toEqual({
        data: null,
        errors: [fieldError(['bulkAddContactTags'], missing('Contact', [String(theirContact)]), `Contact not found: ${theirContact}`)],
      });
      expect(await tagIdsOf(a)).toEqual([tag.lead]);
    });

    it('applies the access rules: the tags scope for definitions, contacts for relations, full tokens for writes', async () => {
      const contactsOnly = await t.token(ws.id, { kind: 'developer', scopes: ['contacts'] });
      const tagsOnly = await t.token(ws.id, { kind: 'developer', scopes: ['tags'] });
      const readOnly = await t.token(ws.id, { kind: 'developer', readOnly: true });
      const create = 'mutation { createTag(input: { name: "Forbidden" }) { name } }';
      expect(await run(create, {}, contactsOnly)).toEqual({
        data: null,
        errors: [fieldError(['createTag'], forbidden({ reason: 'missingScope', scope: 'tags' }), 'This token lacks the "tags" scope')],
      });
      expect(await run(create, {}, readOnly)).toEqual({
        data: null,
        errors: [fieldError(['createTag'], forbidden({ reason: 'readOnlyToken' }), 'This token is read-only: mutations need a full-permission token')],
      });
      const c = await newContact();
      const add = `mutation { addContactTags(identifier: "${c}", tagIds: ["${tag.vip}"]) { success } }`;
      expect(await run(add, {}, tagsOnly)).toEqual({
        data: null,
        errors: [fieldError(['addContactTags'], forbidden({ reason: 'missingScope', scope: 'contacts' }), 'This token lacks the "contacts" scope')],
      });
      expect(await tagIdsOf(c)).toEqual([]);
      expect((await run(`{ tag(idOrName: "vip") { name } }`, {}, readOnly)).data).toEqual({ tag: { name: 'VIP' } });
    });
  });

  describe('sequences', () => {
    it('sequences(page, perPage) pages them in creation order with subscribersCount', async () => {
      const own = await t.workspace({ name: 'Pages' });
      const of = fixtures(t.db, own.id);
      const ids = [await of.sequence('One'), await of.sequence('Two'), await of.sequence('Three')];
      const [x, y] = [await of.contact({ email: 'x@example.com' }), await of.contact({ email: 'y@example.com' })];
      await of.subscribe(x, ids[0]);
      await of.subscribe(y, ids[0]);
      await of.subscribe(x, ids[2]);
      const q = `query($page: SafeInt!, $perPage: Int!) { sequences(page: $page, perPage: $perPage) { data { ${SEQUENCE} } pageCount } }`;
      const first = await run(q, { page: 1, perPage: 2 }, own.userToken);
      expect(first).toEqual({
        data: {
          sequences: {
            data: [
              { ...sequenceNode(ids[0], 'One', { subscribersCount: 2 }) },
              { ...sequenceNode(ids[1], 'Two') },
            ],
            pageCount: 2,
          },
        },
      });
      expect((await run(q, { page: 2, perPage: 2 }, own.developerToken)).data.sequences).toEqual({ data: [sequenceNode(ids[2], 'Three', { subscribersCount: 1 })], pageCount: 2 });
      expect(await run(q, { page: 1, perPage: 51 }, own.developerToken)).toEqual({
        data: null,
        errors: [invalidInput(['sequences'], [{ message: 'perPage must be at most 50', path: ['perPage'] }], 'perPage must be at most 50')],
      });
    });

    it('subscribersCount costs one statement per page, whatever its size', async () => {
      const own = await t.workspace({ name: 'Counted' });
      const of = fixtures(t.db, own.id);
      const contact = await of.contact({ email: 'counted@example.com' });
      for (let i = 0; i < 30; i++) await of.subscribe(contact, await of.sequence(`S${i}`));
      const q = 'query($perPage: Int!) { sequences(perPage: $perPage) { data { name subscribersCount } pageCount } }';
      // The first request looks the token up (then cached): keep it out of the counts.
      await t.graphql('{ tags { name } }', {}, { token: own.developerToken });
      const small = await t.graphql(q, { perPage: 2 }, { token: own.developerToken });
      const large = await t.graphql(q, { perPage: 30 }, { token: own.developerToken });
      expect(small.body.data.sequences.data).toHaveLength(2);
      expect(large.body.data.sequences.data.every((s: { subscribersCount: number }) => s.subscribersCount === 1)).toBe(true);
      expect(statementsOf(large)).toBe(statementsOf(small));
      // count, page, one grouped count
      expect(statementsOf(large)).toBe(3);
    });

    it('sequence(id) and node(id) answer a sequence of the workspace only', async () => {
      const c = await newContact();
      await f.subscribe(c, seq.promo);
      const q = `query($id: ID!) { sequence(id: $id) { ${SEQUENCE} } }`;
      for (const id of [String(seq.promo), encodeGlobalID('Sequence', String(seq.promo))]) {
        expect(await run(q, { id }, ws.userToken)).toEqual({ data: { sequence: sequenceNode(seq.promo, 'Promo', { subscribersCount: 1 }) } });
      }
      expect(await run(q, { id: String(seq.theirs) })).toEqual({ data: null, errors: [fieldError(['sequence'], notFound('Sequence'), 'Sequence not found')] });
      const node = 'query($id: ID!) { node(id: $id) { ... on Sequence { name } } }';
      expect(await run(node, { id: encodeGlobalID('Sequence', String(seq.promo)) })).toEqual({ data: { node: { name: 'Promo' } } });
      expect(await run(node, { id: encodeGlobalID('Sequence', String(seq.theirs)) })).toEqual({ data: { node: null } });
    });

    it('createSequence, updateSequence and deleteSequence do what REST does', async () => {
      const create = `mutation($input: CreateSequenceInput!) { createSequence(input: $input) { ${SEQUENCE} } }`;
      const made = await run(create, { input: { name: ' Drip ', isActive: null } });
      expect(made).toEqual({
        data: { createSequence: { ...sequenceNode('0', 'Drip'), id: expect.any(String), rawId: digits(), createdAt: isoNow(), updatedAt: isoNow() } },
      });
      const id = made.data.createSequence.rawId;
      const update = `mutation($id: ID!, $input: UpdateSequenceInput!) { updateSequence(id: $id, input: $input) { name isActive updatedAt } }`;
      expect(await run(update, { id, input: { isActive: false } })).toEqual({ data: { updateSequence: { name: 'Drip', isActive: false, updatedAt: isoNow() } } });
      expect(await run(update, { id, input: {} })).toEqual({
        data: null,
        errors: [invalidInput(['updateSequence'], [{ message: 'Provide at least one of name, isActive or folderId', path: ['input'] }], 'input: Provide at least one of name, isActive or folderId')],
      });
      expect(await run(update, { id: String(seq.theirs), input: { name: 'Mine now' } })).toEqual({
        data: null,
        errors: [fieldError(['updateSequence'], notFound('Sequence'), 'Sequence not found')],
      });
      const c = await newContact();
      await f.subscribe(c, Number(id));
      const del = 'mutation($id: ID!) { deleteSequence(id: $id) { success } }';
      expect(await run(del, { id: encodeGlobalID('Sequence', id) })).toEqual({ data: { deleteSequence: { success: true } } });
      expect(await sequencesOf(c)).toEqual([]);
      expect(await run(del, { id })).toEqual({ data: null, errors: [fieldError(['deleteSequence'], notFound('Sequence'), 'Sequence not found')] });
    });

    it('subscribe, unsubscribe, set and bulk-subscribe a contact as REST does', async () => {
      const c = await newContact();
      const sub = 'mutation($identifier: String!, $ids: [ID!]!) { subscribeContactSequences(identifier: $identifier, sequenceIds: $ids) { success } }';
      const unsub = 'mutation($identifier: String!, $ids: [ID!]!) { unsubscribeContactSequences(identifier: $identifier, sequenceIds: $ids) { success } }';
      const set = 'mutation($identifier: String!, $ids: [ID!]!) { setContactSequences(identifier: $identifier, sequenceIds: $ids) { success } }';
      const bulk = 'mutation($contactIds: [ID!]!, $ids: [ID!]!) { bulkSubscribeContactSequences(contactIds: $contactIds, sequenceIds: $ids) { success affected } }';
      expect(await run(sub, { identifier: String(c), ids: [String(seq.promo), encodeGlobalID('Sequence', String(seq.welcome))] })).toEqual({
        data: { subscribeContactSequences: { success: true } },
      });
      expect(await sequencesOf(c)).toEqual([seq.promo, seq.welcome]);
      expect(await run(unsub, { identifier: String(c), ids: [String(seq.promo)] })).toEqual({ data: { unsubscribeContactSequences: { success: true } } });
      expect(await sequencesOf(c)).toEqual([seq.welcome]);
      expect(await run(set, { identifier: String(c), ids: [String(seq.promo)] })).toEqual({ data: { setContactSequences: { success: true } } });
      expect(await sequencesOf(c)).toEqual([seq.promo]);
      expect(await run(sub, { identifier: String(c), ids: [String(seq.welcome), String(seq.theirs)] })).toEqual({
        data: null,
        errors: [fieldError(['subscribeContactSequences'], missing('Sequence', [String(seq.theirs)]), `Sequence not found: ${seq.theirs}`)],
      });
      expect(await sequencesOf(c)).toEqual([seq.promo]);
      const d = await newContact();
      expect(await run(bulk, { contactIds: [String(c), String(d)], ids: [String(seq.promo)] })).toEqual({
        data: { bulkSubscribeContactSequences: { success: true, affected: 1 } },
      });
      expect(await sequencesOf(d)).toEqual([seq.promo]);
      expect(await run(bulk, { contactIds: [String(d)], ids: [String(seq.welcome)] }, other.developerToken)).toEqual({
        data: null,
        errors: [fieldError(['bulkSubscribeContactSequences'], missing('Contact', [String(d)]), `Contact not found: ${d}`)],
      });
    });

    it('needs the sequences scope for definitions and the contacts scope for subscriptions', async () => {
      const contactsOnly = await t.token(ws.id, { kind: 'developer', scopes: ['contacts'] });
      const sequencesOnly = await t.token(ws.id, { kind: 'developer', scopes: ['sequences'] });
      expect(await run('{ sequences { pageCount } }', {}, contactsOnly)).toEqual({
        data: null,
        errors: [fieldError(['sequences'], forbidden({ reason: 'missingScope', scope: 'sequences' }), 'This token lacks the "sequences" scope')],
      });
      const c = await newContact();
      expect(await run(`mutation { subscribeContactSequences(identifier: "${c}", sequenceIds: ["${seq.promo}"]) { success } }`, {}, sequencesOnly)).toEqual({
        data: null,
        errors: [fieldError(['subscribeContactSequences'], forbidden({ reason: 'missingScope', scope: 'contacts' }), 'This token lacks the "contacts" scope')],
      });
      expect(await sequencesOf(c)).toEqual([]);
    });
  });
});
