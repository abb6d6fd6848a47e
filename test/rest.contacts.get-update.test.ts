import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { unlimited } from './support/endpoints.js';
import { fixtures, T0 } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { forbidden, invalidRequestData, isoNow, notFound, validationError } from './support/rest.js';

/** The whole contact object of a fixture contact without relations: override what differs. */
const contactBody = (id: number, workspaceId: number, fields: Record<string, unknown> = {}) => ({
  id: String(id),
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
  createdAt: T0,
  updatedAt: T0,
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

describe('GET, PATCH and PUT /v1/contacts/{identifier}', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  const as = (token = ws.developerToken) => ({ token });

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    api = await contractClient(t);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
  });
  afterAll(() => t.close());

  describe('GET', () => {
    it('answers the whole contact with its values, tags, notes and inboxes, by every identifier form', async () => {
      const f = fixtures(t.db, ws.id);
      const id = await f.contact({ email: 'Grace@Example.com', phone: '+15550200', firstName: 'Grace', lastName: 'Hopper' });
      const field = await f.customField('Company');
      const value = await f.fieldValue(id, field, 'Navy');
      const tag = await f.tag('vip');
      await f.tagContact(id, tag);
      const user = await f.user('Agent', 'agent@example.com');
      const note = await f.note(id, 'Wrote COBOL', user);
      const inbox = await f.inbox('Web', 'chat');
      const membership = await f.contactInbox(id, inbox);
      const expected = contactBody(id, ws.id, {
        email: 'Grace@Example.com',
        phoneNumber: '+15550200',
        firstName: 'Grace',
        lastName: 'Hopper',
        fullName: 'Grace Hopper',
        contactCustomFields: [{ id: String(value), createdAt: T0, updatedAt: T0, value: 'Navy', contactId: String(id), customFieldId: String(field) }],
        tags: [{ id: String(tag), createdAt: T0, updatedAt: T0, name: 'vip', deletedAt: null, folderId: null, workspaceId: String(ws.id) }],
        contactNotes: [{ id: String(note), createdAt: T0, updatedAt: T0, text: 'Wrote COBOL', contactId: String(id), createdById: String(user) }],
        contactInboxes: [
          {
            id: String(membership),
            contactId: String(id),
            inboxId: String(inbox),
            channel: 'chat',
            inbox: { id: String(inbox), createdAt: T0, updatedAt: T0, name: 'Web', channel: 'chat', sourceId: 'src-Web', workspaceId: String(ws.id), status: 'active' },
          },
        ],
      });
      for (const identifier of [String(id), `id:${id}`, 'grace@example.com', 'email:GRACE@example.com', '+15550200', 'phone:+15550200']) {
        const res = await api.request('GET', `/v1/contacts/${encodeURIComponent(identifier)}`, as());
        expect(res.status, identifier).toBe(200);
        expect(res.body).toEqual(expected);
      }
      // Also under /api, and for a user token (reads take every scheme).
      expect((await t.request('GET', `/api/v1/contacts/${id}`, as(ws.userToken))).body).toEqual(expected);
    });

    it("is 404 for an unknown contact and for another workspace's, whichever token asks", async () => {
      const theirs = await fixtures(t.db, other.id).contact({ email: 'theirs@example.com' });
      for (const identifier of ['424242', 'id:424242', 'nobody@example.com', 'phone:+19999999', String(theirs), 'theirs@example.com']) {
        const res = await api.request('GET', `/v1/contacts/${identifier}`, as());
        expect(res.status, identifier).toBe(404);
        expect(res.body).toEqual(notFound('Contact'));
      }
      const mine = await fixtures(t.db, ws.id).contact({ email: 'mine@example.com' });
      expect((await api.request('GET', `/v1/contacts/${mine}`, as(other.developerToken))).body).toEqual(notFound('Contact'));
    });

    it('needs the contacts scope', async () => {
      const id = await fixtures(t.db, ws.id).contact({ email: 'scoped@example.com' });
      const tagsOnly = await t.token(ws.id, { kind: 'developer', scopes: ['tags'] });
      const res = await api.request('GET', `/v1/contacts/${id}`, as(tagsOnly));
      expect(res.status).toBe(403);
      expect(res.body).toEqual(forbidden({ reason: 'missingScope', scope: 'contacts' }));
    });
  });

  describe('PATCH', () => {
    let id: number;
    const patch = (body: unknown, identifier: string | number = id, token = ws.developerToken) =>
      api.request('PATCH', `/v1/contacts/${identifier}`, { token, body });
    const stored = async () => (await api.request('GET', `/v1/contacts/${id}`, as())).body;

    beforeEach(async () => {
      await t.db.deleteFrom('contacts').where('workspace_id', '=', ws.id).execute();
      id = await fixtures(t.db, ws.id).contact({ email: 'ada@example.com', phone: '+15550100', firstName: 'Ada', lastName: 'Lovelace' });
    });

    const ada = (fields: Record<string, unknown> = {}) =>
      contactBody(id, ws.id, { email: 'ada@example.com', phoneNumber: '+15550100', firstName: 'Ada', lastName: 'Lovelace', fullName: 'Ada Lovelace', ...fields });

    it('changes only the fields given, moves updatedAt, and answers the whole contact', async () => {
      const res = await patch({
        lastName: ' King ',
        gender: 'female',
        avatar: 'https://cdn.example.com/ada.png',
        locale: 'en-GB',
        timezone: 'Europe/London',
        country: 'gb',
        state: 'England',
        city: 'London',
        location: 'Marylebone',
        ref: 'crm-1815',
        emailOptIn: true,
      });
      expect(res.status).toBe(200);
      const expected = ada({
        lastName: 'King',
        fullName: 'Ada King',
        gender: 'female',
        avatar: 'https://cdn.example.com/ada.png',
        locale: 'en-GB',
        timezone: 'Europe/London',
        country: 'GB',
        state: 'England',
        city: 'London',
        location: 'Marylebone',
        ref: 'crm-1815',
        emailOptIn: true,
        updatedAt: isoNow(),
      });
      expect(res.body).toEqual(expected);
      expect(res.body.updatedAt).not.toBe(T0);
      expect(await stored()).toEqual(res.body);
    });

    it('clears a field given as null; an empty or blank string is not given (unchanged)', async () => {
      await patch({ city: 'London', locale: 'en' });
      const res = await patch({ city: null, locale: '', firstName: '  ', phoneNumber: null });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(ada({ phoneNumber: null, locale: 'en', updatedAt: isoNow() }));
    });

    it('stores a time zone under its canonical name and a country code upper-case', async () => {
      const res = await patch({ timezone: 'america/new_york', country: 'us' });
      expect(res.body).toMatchObject({ timezone: 'America/New_York', country: 'US' });
      expect((await patch({ timezone: 'UTC' })).body.timezone).toBe('UTC');
    });

    it('is 422 at the path of each invalid field, and changes nothing', async () => {
      const cases: [Record<string, unknown>, string, string][] = [
        [{ email: 'not-an-email' }, 'email', 'email must be a valid email address'],
        [{ phoneNumber: '555-0100' }, 'phoneNumber', 'phoneNumber must be an optional + followed by 7 to 20 digits'],
        [{ avatar: 'ftp://cdn.example.com/a.png' }, 'avatar', 'avatar must be an http or https URL'],
        [{ avatar: 'not a url' }, 'avatar', 'avatar must be an http or https URL'],
        [{ locale: 'English' }, 'locale', 'locale must be a language tag such as en, pt-BR or zh_Hant_TW'],
        [{ timezone: 'Mars/Olympus_Mons' }, 'timezone', 'timezone must be an IANA time zone such as Europe/Berlin'],
        [{ timezone: '+01:00' }, 'timezone', 'timezone must be an IANA time zone such as Europe/Berlin'],
        [{ country: 'UK' }, 'country', 'country must be an ISO 3166-1 alpha-2 code such as DE'],
        [{ country: 'DEU' }, 'country', 'country must be an ISO 3166-1 alpha-2 code such as DE'],
        [{ gender: 'other' }, 'gender', 'Invalid option: expected one of "male"|"female"|"unknown"'],
        [{ emailOptIn: 'yes' }, 'emailOptIn', 'Invalid input: expected boolean, received string'],
        [{ city: 'x'.repeat(256) }, 'city', 'Too big: expected string to have <=255 characters'],
        [{ firstName: 42 }, 'firstName', 'Invalid input: expected string, received number'],
        [{ nickname: 'Ada' }, 'nickname', 'Unrecognized key: "nickname"'],
      ];
      for (const [body, field, message] of cases) {
        const res = await patch(body);
        expect(res.status, JSON.stringify(body)).toBe(422);
        expect(res.body).toEqual(invalidRequestData([{ message, path: ['body', field] }]));
      }
      expect(await stored()).toEqual(ada());
    });

    it('keeps email and phone numbers unique in the workspace (email any case), as on create', async () => {
      await fixtures(t.db, ws.id).contact({ email: 'taken@example.com', phone: '+15550999' });
      const email = await patch({ email: 'TAKEN@example.com' });
      expect(email.status).toBe(422);
      expect(email.body).toEqual(validationError({ field: 'email', reason: 'alreadyExists' }));
      const phone = await patch({ phoneNumber: '+15550999' });
      expect(phone.status).toBe(422);
      expect(phone.body).toEqual(validationError({ field: 'phoneNumber', reason: 'alreadyExists' }));
      expect(await stored()).toEqual(ada());
      // Its own values (in another case) are no conflict; another workspace's are none either.
      await fixtures(t.db, other.id).contact({ email: 'elsewhere@example.com' });
      expect((await patch({ email: 'ADA@example.com', phoneNumber: '+15550100' })).body).toEqual(ada({ email: 'ADA@example.com', updatedAt: isoNow() }));
      expect((await patch({ email: 'elsewhere@example.com' })).status).toBe(200);
    });

    it('lets one of two contacts racing for the same email have it; the other gets 422 validation', async () => {
      const second = await fixtures(t.db, ws.id).contact({ email: 'second@example.com' });
      const results = await Promise.all([patch({ email: 'race@example.com' }), patch({ email: 'Race@example.com' }, second)]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
      expect(results.find((r) => r.status === 422)!.body).toEqual(validationError({ field: 'email', reason: 'alreadyExists' }));
    });

    it('is 422 validation when the change would leave the contact without email and phone number', async () => {
      await patch({ phoneNumber: null });
      const res = await patch({ email: null });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(validationError({ reason: 'emailOrPhoneRequired' }));
      expect((await stored()).email).toBe('ada@example.com');
      // Swapping one for the other in one call is fine.
      expect((await patch({ email: null, phoneNumber: '+15550101' })).body).toMatchObject({ email: null, phoneNumber: '+15550101' });
    });

    it("is 404 for another workspace's contact, which stays as it was; a read-only token is 403", async () => {
      const res = await patch({ firstName: 'Mallory' }, id, other.developerToken);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound('Contact'));
      const readOnly = await t.token(ws.id, { kind: 'developer', readOnly: true });
      expect((await patch({ firstName: 'Mallory' }, id, readOnly)).body).toEqual(forbidden({ reason: 'readOnlyToken' }));
      expect(await stored()).toEqual(ada());
    });
  });

  describe('PUT', () => {
    let id: number;
    const put = (body: unknown, identifier: string | number = id, token = ws.developerToken) => api.request('PUT', `/v1/contacts/${identifier}`, { token, body });

    beforeEach(async () => {
      await t.db.deleteFrom('contacts').where('workspace_id', '=', ws.id).execute();
      const f = fixtures(t.db, ws.id);
      id = await f.contact({ email: 'ada@example.com', phone: '+15550100', firstName: 'Ada', lastName: 'Lovelace' });
      await api.request('PATCH', `/v1/contacts/${id}`, { ...as(), body: { gender: 'female', city: 'London', emailOptIn: true, timezone: 'Europe/London' } });
    });

    it('sets the fields given and clears every other editable field; relations stay', async () => {
      const f = fixtures(t.db, ws.id);
      const tag = await f.tag('kept');
      await f.tagContact(id, tag);
      const res = await put({ email: 'ada@example.com', lastName: 'King', locale: 'en' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(
        contactBody(id, ws.id, {
          email: 'ada@example.com',
          lastName: 'King',
          fullName: 'King',
          locale: 'en',
          updatedAt: isoNow(),
          tags: [{ id: String(tag), createdAt: T0, updatedAt: T0, name: 'kept', deletedAt: null, folderId: null, workspaceId: String(ws.id) }],
        }),
      );
    });

    it('takes every editable field at once', async () => {
      const body = {
        email: 'grace@example.com',
        phoneNumber: '+15550300',
        firstName: 'Grace',
        lastName: 'Hopper',
        gender: 'female',
        avatar: 'http://cdn.example.com/g.png',
        locale: 'en-US',
        timezone: 'America/New_York',
        country: 'US',
        state: 'NY',
        city: 'New York',
        location: 'Manhattan',
        ref: 'navy',
        emailOptIn: true,
      };
      const res = await put(body);
      expect(res.body).toEqual(contactBody(id, ws.id, { ...body, fullName: 'Grace Hopper', updatedAt: isoNow() }));
    });

    it('is 422 validation without email and phone number (blank ones count as absent), changing nothing', async () => {
      for (const body of [{ firstName: 'Ada' }, { email: '', phoneNumber: ' ', firstName: 'Ada' }, {}]) {
        const res = await put(body);
        expect(res.status).toBe(422);
        expect(res.body).toEqual(validationError({ reason: 'emailOrPhoneRequired' }));
      }
      expect((await api.request('GET', `/v1/contacts/${id}`, as())).body).toMatchObject({ email: 'ada@example.com', city: 'London', gender: 'female' });
    });

    it('keeps email and phone numbers unique, and is 404 for an unknown or foreign contact', async () => {
      await fixtures(t.db, ws.id).contact({ phone: '+15550999' });
      expect((await put({ email: 'ada@example.com', phoneNumber: '+15550999' })).body).toEqual(validationError({ field: 'phoneNumber', reason: 'alreadyExists' }));
      expect((await put({ email: 'ada@example.com' }, 'nobody@example.com')).body).toEqual(notFound('Contact'));
      expect((await put({ email: 'ada@example.com' }, id, other.developerToken)).body).toEqual(notFound('Contact'));
      expect((await api.request('GET', `/v1/contacts/${id}`, as())).body).toMatchObject({ phoneNumber: '+15550100', city: 'London' });
    });
  });
});
