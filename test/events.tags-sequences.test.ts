import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngine } from './support/engine.js';
import { unlimited } from './support/endpoints.js';
import { fixtures, T0 } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { event, recordedEvents } from './support/recorded-events.js';

/**
 * Events of a contact's tags and sequences (workspace_events, written with the change): tagApplied
 * and tagRemoved for each tag a contact gains or loses (add, remove, set as a difference, by name
 * with tags created on the way, bulk), subscribedToSequence and unsubscribedFromSequence likewise;
 * a call that changes nothing records nothing, nor does deleting a tag or a sequence.
 */
describe(`events of tags and sequences on ${testEngine}`, () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let f: ReturnType<typeof fixtures>;
  let events: ReturnType<typeof recordedEvents>;
  let serial = 0;
  const tag = { vip: 0, lead: 0, customer: 0 };
  const seq = { welcome: 0, winback: 0, nurture: 0 };

  const api = (method: string, path: string, body?: unknown, token = ws.developerToken) => t.request(method, path, { token, ...(body === undefined ? {} : { body }) });
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await api(method, path, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const newContact = () => f.contact({ email: `c${++serial}@example.com` });
  /** Many contacts at once (a bulk call's worth), by id. */
  const manyContacts = async (n: number) => {
    const ids: number[] = [];
    for (let i = 0; i < n; i += 250) {
      const rows = await t.db
        .insertInto('contacts')
        .values(Array.from({ length: Math.min(250, n - i) }, () => ({ workspace_id: ws.id, email: `m${++serial}@example.com`, gender: 'unknown', email_verified: 0, email_opt_in: 0, created_at: T0, updated_at: T0 })))
        .returning('id')
        .execute();
      ids.push(...rows.map((r) => r.id));
    }
    return ids;
  };
  const countEvents = async (type: string) =>
    Number((await t.db.selectFrom('workspace_events').select((e) => e.fn.countAll().as('n')).where('workspace_id', '=', ws.id).where('type', '=', type).executeTakeFirstOrThrow()).n);
  const applied = (contact: number, id: number, name: string) => event('tagApplied', 'tag_applied', contact, { tag: name }, id);
  const removed = (contact: number, id: number, name: string) => event('tagRemoved', 'tag_removed', contact, { tag: name }, id);
  const subscribed = (contact: number, id: number, name: string) =>
    event('subscribedToSequence', 'subscribed_to_sequence', contact, { sequence_id: String(id), sequence_name: name }, id);
  const unsubscribed = (contact: number, id: number, name: string) =>
    event('unsubscribedFromSequence', 'unsubscribed_from_sequence', contact, { sequence_id: String(id), sequence_name: name }, id);

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    ws = await t.workspace();
    f = fixtures(t.db, ws.id);
    tag.vip = await f.tag('VIP');
    tag.lead = await f.tag('lead');
    tag.customer = await f.tag('Customer');
    seq.welcome = await f.sequence('Welcome');
    seq.winback = await f.sequence('Win-back');
    seq.nurture = await f.sequence('Nurture');
    events = recordedEvents(t.db, ws.id);
  });
  afterAll(() => t?.close());

  describe('tags', () => {
    it('add: one tagApplied per tag the contact gains; adding tags it has records nothing', async () => {
      const c = await newContact();
      await f.tagContact(c, tag.lead);
      await ok('POST', `/v1/contacts/${c}/tags`, { tagIds: [String(tag.vip), String(tag.lead), String(tag.customer)] });
      expect(await events.next()).toEqual([applied(c, tag.vip, 'VIP'), applied(c, tag.customer, 'Customer')].sort((a, b) => a.sourceId! - b.sourceId!));
      await ok('POST', `/v1/contacts/${c}/tags`, { tagIds: [String(tag.vip), String(tag.lead)] });
      expect(await events.next()).toEqual([]);
    });

    it('remove: one tagRemoved per tag it had; removing tags it lacks records nothing; a refused call records nothing', async () => {
      const c = await newContact();
      await f.tagContact(c, tag.vip);
      await ok('DELETE', `/v1/contacts/${c}/tags`, { tagIds: [String(tag.vip), String(tag.lead)] });
      expect(await events.next()).toEqual([removed(c, tag.vip, 'VIP')]);
      await ok('DELETE', `/v1/contacts/${c}/tags`, { tagIds: [String(tag.vip)] });
      expect(await events.next()).toEqual([]);
      // An unknown tag id: 404, nothing changed, nothing recorded.
      expect((await api('POST', `/v1/contacts/${c}/tags`, { tagIds: [String(tag.vip), '424242'] })).status).toBe(404);
      expect(await events.next()).toEqual([]);
    });

    it('set: the difference, removals first; the same set again records nothing', async () => {
      const c = await newContact();
      await f.tagContact(c, tag.vip);
      await f.tagContact(c, tag.lead);
      await ok('PUT', `/v1/contacts/${c}/tags`, { tagIds: [String(tag.lead), String(tag.customer)] });
      expect(await events.next()).toEqual([removed(c, tag.vip, 'VIP'), applied(c, tag.customer, 'Customer')]);
      await ok('PUT', `/v1/contacts/${c}/tags`, { tagIds: [String(tag.customer), String(tag.lead)] });
      expect(await events.next()).toEqual([]);
      await ok('PUT', `/v1/contacts/${c}/tags`, { tagIds: [] });
      expect(await events.next()).toEqual([removed(c, tag.lead, 'lead'), removed(c, tag.customer, 'Customer')].sort((a, b) => a.sourceId! - b.sourceId!));
    });

    it('by name: tags matched (any case) and tags created on the way are applied; the names again record nothing', async () => {
      const c = await newContact();
      await f.tagContact(c, tag.lead);
      await ok('POST', `/v1/contacts/${c}/tags/by-name`, { names: ['vip', 'LEAD', 'Webinar 2026'] });
      const webinar = (await t.db.selectFrom('tags').select('id').where('workspace_id', '=', ws.id).where('name', '=', 'Webinar 2026').executeTakeFirstOrThrow()).id;
      expect(await events.next()).toEqual([applied(c, tag.vip, 'VIP'), applied(c, webinar, 'Webinar 2026')]);
      await ok('POST', `/v1/contacts/${c}/tags/by-name`, { names: ['VIP', 'webinar 2026'] });
      expect(await events.next()).toEqual([]);
    });

    it('bulk: one tagApplied per (contact, tag) added, by contact then tag; the same call again records nothing', async () => {
      const [a, b] = [await newContact(), await newContact()];
      await f.tagContact(b, tag.vip);
      const body = { contactIds: [String(b), String(a)], tagIds: [String(tag.customer), String(tag.vip)] };
      expect(await ok('POST', '/v1/contacts/bulk/tags', body)).toEqual({ success: true, affected: 2 });
      expect(await events.next()).toEqual(
        [applied(a, tag.vip, 'VIP'), applied(a, tag.customer, 'Customer'), applied(b, tag.customer, 'Customer')].sort((x, y) => x.contactId! - y.contactId! || x.sourceId! - y.sourceId!),
      );
      expect(await ok('POST', '/v1/contacts/bulk/tags', body)).toEqual({ success: true, affected: 0 });
      expect(await events.next()).toEqual([]);
    });

    it('bulk at its largest (1,000 contacts, 100 tags): all 100,000 tagApplied are recorded', async () => {
      const contacts = await manyContacts(1000);
      const tags: number[] = [];
      for (let i = 0; i < 100; i++) tags.push(await f.tag(`Bulk ${i}`));
      const before = await countEvents('tagApplied');
      expect(await ok('POST', '/v1/contacts/bulk/tags', { contactIds: contacts.map(String), tagIds: tags.map(String) })).toEqual({ success: true, affected: 1000 });
      expect(await countEvents('tagApplied')).toBe(before + 100_000);
      const recorded = await events.next();
      expect(recorded).toHaveLength(100_000);
      expect(recorded[0]).toEqual(applied(contacts[0]!, tags[0]!, 'Bulk 0'));
      expect(recorded.at(-1)).toEqual(applied(contacts.at(-1)!, tags.at(-1)!, 'Bulk 99'));
    }, 60_000);

    it('GraphQL addContactTags and removeContactTags record the same events', async () => {
      const c = await newContact();
      const run = async (name: string, tagIds: number[]) => {
        const res = await t.graphql(`mutation($identifier: String!, $tagIds: [ID!]!) { ${name}(identifier: $identifier, tagIds: $tagIds) { success } }`, { identifier: String(c), tagIds: tagIds.map(String) }, { token: ws.userToken });
        expect(res.body).toEqual({ data: { [name]: { success: true } } });
      };
      await run('addContactTags', [tag.lead]);
      expect(await events.next()).toEqual([applied(c, tag.lead, 'lead')]);
      await run('removeContactTags', [tag.lead, tag.vip]);
      expect(await events.next()).toEqual([removed(c, tag.lead, 'lead')]);
    });

    it('deleting a tag takes it off every contact and records nothing', async () => {
      const doomed = await f.tag('Doomed');
      const c = await newContact();
      await f.tagContact(c, doomed);
      await ok('DELETE', `/v1/tags/${doomed}`);
      expect(await t.db.selectFrom('contact_tags').select('tag_id').where('contact_id', '=', c).execute()).toEqual([]);
      expect(await events.next()).toEqual([]);
    });
  });

  describe('sequences', () => {
    it('subscribe: one subscribedToSequence per new subscription; existing ones record nothing', async () => {
      const c = await newContact();
      await f.subscribe(c, seq.welcome);
      await ok('POST', `/v1/contacts/${c}/sequences`, { sequenceIds: [String(seq.welcome), String(seq.nurture)] });
      expect(await events.next()).toEqual([subscribed(c, seq.nurture, 'Nurture')]);
      await ok('POST', `/v1/contacts/${c}/sequences`, { sequenceIds: [String(seq.nurture)] });
      expect(await events.next()).toEqual([]);
    });

    it('unsubscribe: one unsubscribedFromSequence per subscription removed; none there records nothing', async () => {
      const c = await newContact();
      await f.subscribe(c, seq.winback);
      await ok('DELETE', `/v1/contacts/${c}/sequences`, { sequenceIds: [String(seq.winback), String(seq.welcome)] });
      expect(await events.next()).toEqual([unsubscribed(c, seq.winback, 'Win-back')]);
      await ok('DELETE', `/v1/contacts/${c}/sequences`, { sequenceIds: [String(seq.winback)] });
      expect(await events.next()).toEqual([]);
    });

    it('set: the difference, removals first; the same set again records nothing', async () => {
      const c = await newContact();
      await f.subscribe(c, seq.welcome);
      await f.subscribe(c, seq.winback);
      await ok('PUT', `/v1/contacts/${c}/sequences`, { sequenceIds: [String(seq.winback), String(seq.nurture)] });
      expect(await events.next()).toEqual([unsubscribed(c, seq.welcome, 'Welcome'), subscribed(c, seq.nurture, 'Nurture')]);
      await ok('PUT', `/v1/contacts/${c}/sequences`, { sequenceIds: [String(seq.nurture), String(seq.winback)] });
      expect(await events.next()).toEqual([]);
    });

    it('bulk: one subscribedToSequence per subscription added; again records nothing', async () => {
      const [a, b] = [await newContact(), await newContact()];
      await f.subscribe(a, seq.welcome);
      const body = { contactIds: [String(a), String(b)], sequenceIds: [String(seq.welcome)] };
      expect(await ok('POST', '/v1/contacts/bulk/sequences', body)).toEqual({ success: true, affected: 1 });
      expect(await events.next()).toEqual([subscribed(b, seq.welcome, 'Welcome')]);
      expect(await ok('POST', '/v1/contacts/bulk/sequences', body)).toEqual({ success: true, affected: 0 });
      expect(await events.next()).toEqual([]);
    });

    it('bulk beyond one insert (1,000 contacts, 5 sequences): all 5,000 subscribedToSequence are recorded', async () => {
      const contacts = await manyContacts(1000);
      const sequences: number[] = [];
      for (let i = 0; i < 5; i++) sequences.push(await f.sequence(`Bulk ${i}`));
      expect(await ok('POST', '/v1/contacts/bulk/sequences', { contactIds: contacts.map(String), sequenceIds: sequences.map(String) })).toEqual({ success: true, affected: 1000 });
      const recorded = await events.next();
      expect(recorded).toHaveLength(5000);
      expect(recorded.slice(0, 5)).toEqual(sequences.map((s, i) => subscribed(contacts[0]!, s, `Bulk ${i}`)));
      expect(new Set(recorded.map((e) => `${e.contactId}:${e.sourceId}`)).size).toBe(5000);
    });

    it('GraphQL setContactSequences records the same events', async () => {
      const c = await newContact();
      await f.subscribe(c, seq.welcome);
      const res = await t.graphql(
        'mutation($identifier: String!, $sequenceIds: [ID!]!) { setContactSequences(identifier: $identifier, sequenceIds: $sequenceIds) { success } }',
        { identifier: String(c), sequenceIds: [String(seq.winback)] },
        { token: ws.developerToken },
      );
      expect(res.body).toEqual({ data: { setContactSequences: { success: true } } });
      expect(await events.next()).toEqual([unsubscribed(c, seq.welcome, 'Welcome'), subscribed(c, seq.winback, 'Win-back')]);
    });

    it('deleting a sequence unsubscribes everyone and records nothing', async () => {
      const doomed = await f.sequence('Doomed');
      await f.subscribe(await newContact(), doomed);
      await ok('DELETE', `/v1/sequences/${doomed}`);
      expect(await events.next()).toEqual([]);
    });
  });
});
