import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertSandboxRecord } from '../src/domain/sandbox/sandbox-record.repository.js';
import { testEngine } from './support/engine.js';
import { unlimited } from './support/endpoints.js';
import { fixtures } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { event, recordedEvents } from './support/recorded-events.js';

/**
 * Events of contacts (workspace_events, written with the change): newContact on create and on an
 * upsert that creates; contactInfoUpdated, one per reported field whose stored value changed, on
 * PATCH, PUT, an upsert that updates and a profile refresh; contactUnsubscribedFormBroadcast when
 * emailOptIn goes from true to false. A change that changes nothing, or is refused, records nothing.
 */
describe(`events of contacts on ${testEngine}`, () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let f: ReturnType<typeof fixtures>;
  let events: ReturnType<typeof recordedEvents>;
  let serial = 0;

  const api = (method: string, path: string, body?: unknown, token = ws.developerToken) => t.request(method, path, { token, ...(body === undefined ? {} : { body }) });
  const ok = async (method: string, path: string, body?: unknown, status = 200) => {
    const res = await api(method, path, body);
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    return res.body;
  };
  const info = (contact: number, infoType: string, oldValue: unknown, newValue: unknown) =>
    event('contactInfoUpdated', 'contact_info_updated', contact, { info_type: infoType, old_value: oldValue, new_value: newValue });
  const unsubscribed = (contact: number) => event('contactUnsubscribedFormBroadcast', 'contact_unsubscribed', contact, {});
  const created = (contact: number, c: { name: string; first_name: string | null; last_name: string | null; phone: string | null; email: string | null }) =>
    event('newContact', 'new_contact', contact, { ...c, custom_fields: {} });

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    ws = await t.workspace();
    f = fixtures(t.db, ws.id);
    events = recordedEvents(t.db, ws.id);
  });
  afterAll(() => t?.close());

  it('create (REST): newContact with the names, phone, email and no custom fields; a refused create records nothing', async () => {
    const body = await ok('POST', '/v1/contacts', { email: 'ada@example.com', phoneNumber: '+14155550123', firstName: 'Ada', lastName: 'Lovelace' });
    const id = Number(body.id);
    expect(await events.next()).toEqual([created(id, { name: 'Ada Lovelace', first_name: 'Ada', last_name: 'Lovelace', phone: '+14155550123', email: 'ada@example.com' })]);
    expect((await api('POST', '/v1/contacts', { email: 'ADA@example.com' })).status).toBe(422);
    expect(await events.next()).toEqual([]);
  });

  it('create (GraphQL, into an inbox): newContact, name "" without names', async () => {
    const inbox = await f.inbox('Web');
    const res = await t.graphql('mutation($input: CreateContactInput!) { createContact(input: $input) { rawId } }', { input: { phoneNumber: '+15550100', inboxId: String(inbox) } }, { token: ws.developerToken });
    const id = Number(res.body.data.createContact.rawId);
    expect(await events.next()).toEqual([created(id, { name: '', first_name: null, last_name: null, phone: '+15550100', email: null })]);
  });

  it('PATCH: one contactInfoUpdated per field whose stored value changed, in a fixed order; the same PATCH again records nothing', async () => {
    const c = await f.contact({ email: `p${++serial}@example.com`, firstName: 'Ada' });
    const patch = { firstName: 'Augusta', lastName: 'King', gender: 'female', city: 'London', country: 'gb', ref: 'not reported', email: `p${serial}@example.com` };
    await ok('PATCH', `/v1/contacts/${c}`, patch);
    expect(await events.next()).toEqual([info(c, 'first_name', 'Ada', 'Augusta'), info(c, 'last_name', null, 'King'), info(c, 'gender', 'unknown', 'female'), info(c, 'country', null, 'GB'), info(c, 'city', null, 'London')]);
    await ok('PATCH', `/v1/contacts/${c}`, patch);
    expect(await events.next()).toEqual([]);
    // null clears: old value, new null.
    await ok('PATCH', `/v1/contacts/${c}`, { city: null, phoneNumber: '+15550111', avatar: 'https://cdn.example/a.png', locale: 'en-GB', timezone: 'europe/london', state: 'Greater London', location: 'Marylebone' });
    expect(await events.next()).toEqual([
      info(c, 'phone', null, '+15550111'),
      info(c, 'avatar', null, 'https://cdn.example/a.png'),
      info(c, 'locale', null, 'en-GB'),
      info(c, 'timezone', null, 'Europe/London'),
      info(c, 'state', null, 'Greater London'),
      info(c, 'city', 'London', null),
      info(c, 'location', null, 'Marylebone'),
    ]);
  });

  it('PATCH emailOptIn: true to false records contactUnsubscribedFormBroadcast, nothing else does', async () => {
    const c = await f.contact({ email: `o${++serial}@example.com` });
    await ok('PATCH', `/v1/contacts/${c}`, { emailOptIn: true });
    expect(await events.next()).toEqual([]);
    await ok('PATCH', `/v1/contacts/${c}`, { emailOptIn: false });
    expect(await events.next()).toEqual([unsubscribed(c)]);
    await ok('PATCH', `/v1/contacts/${c}`, { emailOptIn: false });
    expect(await events.next()).toEqual([]);
  });

  it('the same PATCH, or the same value set, several times at once records its events once (the contact is locked while read)', async () => {
    const c = await f.contact({ email: `k${++serial}@example.com` });
    const field = await f.customField(`Plan ${serial}`);
    await Promise.all([1, 2, 3].map(() => ok('PATCH', `/v1/contacts/${c}`, { city: 'Paris', emailOptIn: true })));
    expect(await events.next()).toEqual([info(c, 'city', null, 'Paris')]);
    await Promise.all([1, 2, 3].map(() => ok('PUT', `/v1/contacts/${c}/custom-fields/${field}`, { value: 'gold' })));
    expect(await events.next()).toEqual([event('customFieldValueChanged', 'custom_field_changed', c, { custom_field: { name: `Plan ${serial}`, old_value: null, new_value: 'gold' } })]);
  });

  it('a refused PATCH (email taken, or neither email nor phone left) records nothing', async () => {
    const c = await f.contact({ email: `r${++serial}@example.com`, firstName: 'Kept' });
    await f.contact({ email: 'taken@example.com' });
    expect((await api('PATCH', `/v1/contacts/${c}`, { firstName: 'Changed', email: 'taken@example.com' })).status).toBe(422);
    expect((await api('PATCH', `/v1/contacts/${c}`, { firstName: 'Changed', email: null })).status).toBe(422);
    expect(await events.next()).toEqual([]);
  });

  it('PUT: the fields it clears count as changes too, emailOptIn false included; the same PUT again records nothing', async () => {
    const c = await f.contact({ email: `u${++serial}@example.com`, firstName: 'Grace', lastName: 'Hopper' });
    await t.db.updateTable('contacts').set({ city: 'Arlington', gender: 'female', email_opt_in: 1 }).where('id', '=', c).execute();
    const put = { email: `u${serial}@example.com`, firstName: 'Grace', phoneNumber: '+15550122' };
    await ok('PUT', `/v1/contacts/${c}`, put);
    expect(await events.next()).toEqual([
      info(c, 'last_name', 'Hopper', null),
      info(c, 'phone', null, '+15550122'),
      info(c, 'gender', 'female', 'unknown'),
      info(c, 'city', 'Arlington', null),
      unsubscribed(c),
    ]);
    await ok('PUT', `/v1/contacts/${c}`, put);
    expect(await events.next()).toEqual([]);
  });

  it('upsert: an update records contactInfoUpdated, a create newContact; repeating either records nothing', async () => {
    const c = await f.contact({ email: `s${++serial}@example.com`, firstName: 'Edsger' });
    expect((await ok('POST', `/v1/contacts/s${serial}@example.com/upsert`, { lastName: 'Dijkstra' })).created).toBe(false);
    expect(await events.next()).toEqual([info(c, 'last_name', null, 'Dijkstra')]);
    await ok('POST', `/v1/contacts/s${serial}@example.com/upsert`, { lastName: 'Dijkstra' });
    expect(await events.next()).toEqual([]);

    const made = await ok('POST', '/v1/contacts/+15550133/upsert', { firstName: 'Barbara', emailOptIn: true });
    expect(made.created).toBe(true);
    const id = Number(made.contact.id);
    expect(await events.next()).toEqual([created(id, { name: 'Barbara', first_name: 'Barbara', last_name: null, phone: '+15550133', email: null })]);
    expect((await ok('POST', '/v1/contacts/+15550133/upsert', { firstName: 'Barbara', emailOptIn: true })).created).toBe(false);
    expect(await events.next()).toEqual([]);
    // An id that finds nothing is 404, and records nothing.
    expect((await api('POST', '/v1/contacts/id:424242/upsert', { firstName: 'Nobody' })).status).toBe(404);
    expect(await events.next()).toEqual([]);
  });

  it('GraphQL updateContact and upsertContact record the same events', async () => {
    const c = await f.contact({ email: `g${++serial}@example.com` });
    const update = await t.graphql('mutation($identifier: String!, $input: ContactFieldsInput!) { updateContact(identifier: $identifier, input: $input) { rawId } }', { identifier: String(c), input: { firstName: 'Alan', emailOptIn: true } }, { token: ws.userToken });
    expect(update.body.errors).toBeUndefined();
    expect(await events.next()).toEqual([info(c, 'first_name', null, 'Alan')]);
    const upsert = await t.graphql(
      'mutation($identifier: String!, $input: ContactFieldsInput!) { upsertContact(identifier: $identifier, input: $input) { created } }',
      { identifier: `g${serial}@example.com`, input: { emailOptIn: false, firstName: 'Alan' } },
      { token: ws.userToken },
    );
    expect(upsert.body).toEqual({ data: { upsertContact: { created: false } } });
    expect(await events.next()).toEqual([unsubscribed(c)]);
  });

  it('profile refresh: one contactInfoUpdated per name or avatar the profile changed; the same profile again records nothing', async () => {
    const c = await f.contact({ email: `m${++serial}@example.com`, firstName: 'Ada', lastName: 'King' });
    const inbox = await f.inbox(`photo ${serial}`, 'photo');
    await t.db.insertInto('contact_inboxes').values({ workspace_id: ws.id, contact_id: c, inbox_id: inbox, channel: 'photo', source_id: `psid-${serial}`, created_at: '2026-11-01T10:00:00.000Z' }).execute();
    await upsertSandboxRecord(t.db, ws.id, 'profile', `psid-${serial}`, { firstName: 'Augusta', lastName: 'King', name: 'Augusta King', username: 'ada', avatarUrl: 'https://cdn.example/ada.jpg' });
    await ok('POST', `/v1/contacts/${c}/refresh-profile`);
    expect(await events.next()).toEqual([info(c, 'first_name', 'Ada', 'Augusta'), info(c, 'avatar', null, 'https://cdn.example/ada.jpg')]);
    const again = await t.graphql('mutation($identifier: String!) { refreshContactProfile(identifier: $identifier) { firstName } }', { identifier: String(c) }, { token: ws.developerToken });
    expect(again.body).toEqual({ data: { refreshContactProfile: { firstName: 'Augusta' } } });
    expect(await events.next()).toEqual([]);
  });
});
