import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { unlimited } from './support/endpoints.js';
import { fixtures, T0 } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { digits, forbidden, invalidRequestData, isoNow, notFound, validationError } from './support/rest.js';

/** The whole contact object without relations: override what differs. */
const contactBody = (workspaceId: number, fields: Record<string, unknown>) => ({
  id: digits(),
  avatar: null,
  phoneNumber: null,
  email: null,
  firstName: null,
  lastName: null,
  fullName: '',
  ref: null,
  country: null,
  state: null,
  city: null,
  location: null,
  locale: null,
  timezone: null,
  workspaceId: String(workspaceId),
  gender: 'unknown',
  emailVerified: false,
  emailOptIn: false,
  createdAt: isoNow(),
  updatedAt: isoNow(),
  lastReadAt: null,
  subscribedAt: null,
  broadcastSubscribedAt: null,
  blockedAt: null,
  contactCustomFields: [],
  tags: [],
  contactNotes: [],
  contactInboxes: [],
  ...fields,
});

describe('POST /v1/contacts/{identifier}/upsert', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  const upsert = (identifier: string | number, body: unknown, token = ws.developerToken) =>
    api.request('POST', `/v1/contacts/${encodeURIComponent(String(identifier))}/upsert`, { token, body });
  const countContacts = async (workspaceId = ws.id) =>
    Number((await t.db.selectFrom('contacts').select((eb) => eb.fn.countAll().as('n')).where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    api = await contractClient(t);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
  });
  afterAll(() => t.close());

  it('updates the contact an identifier finds, as PATCH does: created false', async () => {
    const id = await fixtures(t.db, ws.id).contact({ email: 'ada@example.com', phone: '+15550100', firstName: 'Ada' });
    for (const identifier of [id, `id:${id}`, 'ADA@example.com', 'email:ada@example.com', '+15550100', 'phone:+15550100']) {
      const res = await upsert(identifier, { lastName: 'Lovelace', city: 'London' });
      expect(res.status, String(identifier)).toBe(200);
      expect(res.body).toEqual({
        created: false,
        contact: contactBody(ws.id, {
          id: String(id),
          email: 'ada@example.com',
          phoneNumber: '+15550100',
          firstName: 'Ada',
          lastName: 'Lovelace',
          fullName: 'Ada Lovelace',
          city: 'London',
          createdAt: T0,
        }),
      });
    }
  });

  it('creates a contact from an email or phone identifier and the body: created true', async () => {
    const before = await countContacts();
    const byEmail = await upsert('email:New@Example.com', { firstName: 'New', phoneNumber: '+15550400', gender: 'male' });
    expect(byEmail.status).toBe(200);
    expect(byEmail.body).toEqual({
      created: true,
      contact: contactBody(ws.id, { email: 'New@Example.com', phoneNumber: '+15550400', firstName: 'New', fullName: 'New', gender: 'male' }),
    });
    const byPhone = await upsert('+15550401', { email: '', timezone: 'Europe/Paris' });
    expect(byPhone.body).toEqual({ created: true, contact: contactBody(ws.id, { phoneNumber: '+15550401', timezone: 'Europe/Paris' }) });
    const prefixedDigits = await upsert('phone:15550402', {});
    expect(prefixedDigits.body).toEqual({ created: true, contact: contactBody(ws.id, { phoneNumber: '15550402' }) });
    expect(await countContacts()).toBe(before + 3);
    // The same identifier again finds it now.
    const again = await upsert('new@example.com', { lastName: 'Comer' });
    expect(again.body).toMatchObject({ created: false, contact: { id: byEmail.body.contact.id, lastName: 'Comer', fullName: 'New Comer' } });
  });

  it('is 404 for an id identifier that finds nothing (bare digits are an id first): it never creates', async () => {
    const before = await countContacts();
    for (const identifier of ['424242', 'id:424242', '15550499']) {
      const res = await upsert(identifier, { firstName: 'Ghost' });
      expect(res.status, identifier).toBe(404);
      expect(res.body).toEqual(notFound('Contact'));
    }
    expect(await countContacts()).toBe(before);
  });

  it('is 422 validation when the identifier to create from is not a valid email or phone number', async () => {
    for (const identifier of ['email:not-an-email', 'phone:12ab', '555-0100']) {
      const res = await upsert(identifier, {});
      expect(res.status, identifier).toBe(422);
      expect(res.body).toEqual(validationError({ field: 'identifier', reason: 'notAnEmailOrPhoneNumber' }));
    }
  });

  it('is 422 validation when a new contact would get another value for the identifying field', async () => {
    const before = await countContacts();
    expect((await upsert('email:one@example.com', { email: 'two@example.com' })).body).toEqual(validationError({ field: 'email', reason: 'identifierMismatch' }));
    expect((await upsert('email:one@example.com', { email: null })).body).toEqual(validationError({ field: 'email', reason: 'identifierMismatch' }));
    expect((await upsert('+15550500', { phoneNumber: '+15550501' })).body).toEqual(validationError({ field: 'phoneNumber', reason: 'identifierMismatch' }));
    expect(await countContacts()).toBe(before);
    // The same value (any case for an email) is fine.
    expect((await upsert('email:one@example.com', { email: 'ONE@example.com' })).body.created).toBe(true);
  });

  it("keeps email and phone numbers unique when creating, and another workspace's contacts are not found", async () => {
    await fixtures(t.db, ws.id).contact({ email: 'owner@example.com', phone: '+15550600' });
    const res = await upsert('email:fresh@example.com', { phoneNumber: '+15550600' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(validationError({ field: 'phoneNumber', reason: 'alreadyExists' }));
    expect(await countContacts(other.id)).toBe(0);
    // In another workspace the same email is a new contact there.
    const theirs = await upsert('owner@example.com', { firstName: 'Theirs' }, other.developerToken);
    expect(theirs.body).toMatchObject({ created: true, contact: { workspaceId: String(other.id), email: 'owner@example.com' } });
    const mine = (await api.request('GET', '/v1/contacts/owner@example.com', { token: ws.developerToken })).body;
    expect(mine.firstName).toBeNull();
  });

  it('creates once when several upserts of a new email race; the others update it', async () => {
    const results = await Promise.all(Array.from({ length: 4 }, (_, i) => upsert('email:race@example.com', { ref: `r${i}` })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(results.filter((r) => r.body.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.body.contact.id)).size).toBe(1);
  });

  it('validates the body as PATCH does, and needs a full token with the contacts scope', async () => {
    const bad = await upsert('email:x@example.com', { country: 'Narnia', extra: 1 });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual(
      invalidRequestData([
        { message: 'country must be an ISO 3166-1 alpha-2 code such as DE', path: ['body', 'country'] },
        { message: 'Unrecognized key: "extra"', path: ['body', 'extra'] },
      ]),
    );
    const readOnly = await t.token(ws.id, { kind: 'developer', readOnly: true });
    expect((await upsert('email:x@example.com', {}, readOnly)).body).toEqual(forbidden({ reason: 'readOnlyToken' }));
    // A user access token may upsert (only POST /v1/contacts is limited to workspace tokens).
    expect((await upsert('email:user-made@example.com', {}, ws.userToken)).body.created).toBe(true);
  });
});
