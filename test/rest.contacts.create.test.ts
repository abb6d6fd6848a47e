import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { fixtures, T0 } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { digits, forbidden, invalidRequestData, isoNow, notFound, validationError } from './support/rest.js';

describe('POST /v1/contacts', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  const post = (body: unknown, token = ws.developerToken) => api.request('POST', '/v1/contacts', { token, body });
  /** Which of these emails the workspace's contacts have. */
  const emails = async (list: string[]) =>
    (await t.db.selectFrom('contacts').select('email').where('workspace_id', '=', ws.id).where('email', 'in', list).execute()).map((r) => r.email);

  /** The whole contact object of a new contact: every scalar, gender, the four nested arrays. */
  const newContact = (fields: { email?: string | null; phoneNumber?: string | null; firstName?: string | null; lastName?: string | null; fullName?: string }) => ({
    id: digits(),
    avatar: null,
    phoneNumber: fields.phoneNumber ?? null,
    email: fields.email ?? null,
    firstName: fields.firstName ?? null,
    lastName: fields.lastName ?? null,
    fullName: fields.fullName ?? '',
    ref: null,
    country: null,
    state: null,
    city: null,
    location: null,
    locale: null,
    timezone: null,
    workspaceId: String(ws.id),
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
  });

  beforeAll(async () => {
    t = await createTestApp();
    api = await contractClient(t);
    ws = await t.workspace();
  });
  afterAll(() => t.close());

  it('creates a contact and answers 200 with the full contact object', async () => {
    const res = await post({ email: 'Ada@Example.com', phoneNumber: '+445550001', firstName: ' Ada ', lastName: 'Lovelace' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(newContact({ email: 'Ada@Example.com', phoneNumber: '+445550001', firstName: 'Ada', lastName: 'Lovelace', fullName: 'Ada Lovelace' }));
    expect(res.body.createdAt).toBe(res.body.updatedAt);
  });

  it('needs only an email, or only a phone number', async () => {
    const byEmail = await post({ email: 'only-email@example.com' });
    expect(byEmail.status).toBe(200);
    expect(byEmail.body).toEqual(newContact({ email: 'only-email@example.com' }));
    const byPhone = await post({ phoneNumber: '5550002', firstName: 'Grace' });
    expect(byPhone.status).toBe(200);
    expect(byPhone.body).toEqual(newContact({ phoneNumber: '5550002', firstName: 'Grace', fullName: 'Grace' }));
  });

  it('is 422 without email and phone number', async () => {
    const issue = { message: 'Provide at least one of email or phoneNumber', path: ['body'] };
    for (const body of [{}, { firstName: 'Nobody', lastName: 'Known' }]) {
      const res = await post(body);
      expect(res.status).toBe(422);
      expect(res.body).toEqual(invalidRequestData([issue]));
    }
  });

  it('is 422 for an email that is not an email address', async () => {
    for (const email of ['not-an-email', 'a@b', ' ada@example.com']) {
      const res = await post({ email });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(invalidRequestData([{ message: 'email must be a valid email address', path: ['body', 'email'] }]));
    }
  });

  it('accepts a phone number of an optional + and 7 to 20 digits, nothing else', async () => {
    for (const phoneNumber of ['1234567', '+12345678901234567890']) {
      const res = await post({ phoneNumber });
      expect(res.status).toBe(200);
      expect(res.body.phoneNumber).toBe(phoneNumber);
    }
    for (const phoneNumber of ['123456', '+123456789012345678901', '+1 555 0100', '555-0100-22', '++1234567', 'phone123']) {
      const res = await post({ phoneNumber });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(
        invalidRequestData([{ message: 'phoneNumber must be an optional + followed by 7 to 20 digits', path: ['body', 'phoneNumber'] }]),
      );
    }
  });

  it('treats an empty (or blank) email, phoneNumber, firstName or lastName as not given', async () => {
    const res = await post({ email: 'blanks@example.com', phoneNumber: '', firstName: '', lastName: '  ' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(newContact({ email: 'blanks@example.com' }));
    const phoneOnly = await post({ email: '', phoneNumber: '+15550177', firstName: 'Blank' });
    expect(phoneOnly.status).toBe(200);
    expect(phoneOnly.body).toEqual(newContact({ phoneNumber: '+15550177', firstName: 'Blank', fullName: 'Blank' }));
    // Both empty: neither given.
    const neither = await post({ email: '', phoneNumber: '', firstName: 'Nobody' });
    expect(neither.status).toBe(422);
    expect(neither.body).toEqual(invalidRequestData([{ message: 'Provide at least one of email or phoneNumber', path: ['body'] }]));
  });

  it('takes gender', async () => {
    const res = await post({ email: 'gender@example.com', gender: 'female' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...newContact({ email: 'gender@example.com' }), gender: 'female' });
    const bad = await post({ email: 'gender2@example.com', gender: 'other' });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual(invalidRequestData([{ message: 'Invalid option: expected one of "male"|"female"|"unknown"', path: ['body', 'gender'] }]));
  });

  it('adds the contact to the inbox inboxId names; channel defaults to the inbox\'s and must equal it', async () => {
    const f = fixtures(t.db, ws.id);
    const inbox = await f.inbox('Web', 'chat');
    const inboxRow = {
      id: String(inbox),
      createdAt: T0,
      updatedAt: T0,
      name: 'Web',
      channel: 'chat',
      sourceId: 'src-Web',
      workspaceId: String(ws.id),
      status: 'active',
    };
    const res = await post({ email: 'joined@example.com', inboxId: String(inbox) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...newContact({ email: 'joined@example.com' }),
      contactInboxes: [{ id: digits(), contactId: res.body.id, inboxId: String(inbox), channel: 'chat', inbox: inboxRow }],
    });
    const withChannel = await post({ phoneNumber: '+15550178', channel: 'chat', inboxId: String(inbox) });
    expect(withChannel.status).toBe(200);
    expect(withChannel.body.contactInboxes).toEqual([{ id: digits(), contactId: withChannel.body.id, inboxId: String(inbox), channel: 'chat', inbox: inboxRow }]);

    const mismatch = await post({ email: 'mismatch@example.com', channel: 'photo', inboxId: String(inbox) });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body).toEqual(validationError({ field: 'channel', reason: 'inboxChannelMismatch' }));
    const alone = await post({ email: 'alone@example.com', channel: 'chat' });
    expect(alone.status).toBe(422);
    expect(alone.body).toEqual(invalidRequestData([{ message: 'channel needs inboxId', path: ['body', 'channel'] }]));
    expect(await emails(['mismatch@example.com', 'alone@example.com'])).toEqual([]);
  });

  it("is 404 for an inboxId that is not an inbox of the workspace, and creates nothing", async () => {
    const other = await t.workspace({ name: 'Inbox owner' });
    const theirs = await fixtures(t.db, other.id).inbox('Theirs');
    for (const inboxId of [String(theirs), '999999', '99999999999']) {
      const res = await post({ email: 'lost@example.com', inboxId });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound('Inbox'));
    }
    expect(await emails(['lost@example.com'])).toEqual([]);
    const bad = await post({ email: 'lost@example.com', inboxId: 'web' });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual(invalidRequestData([{ message: 'must be a digit string', path: ['body', 'inboxId'] }]));
  });

  it('is 422 validation naming the field for a duplicate email (any case) or phone number', async () => {
    expect((await post({ email: 'dup@example.com', phoneNumber: '+15550100' })).status).toBe(200);

    const email = await post({ email: 'DUP@example.COM' });
    expect(email.status).toBe(422);
    expect(email.body).toEqual(validationError({ field: 'email', reason: 'alreadyExists' }));

    const phone = await post({ email: 'fresh@example.com', phoneNumber: '+15550100' });
    expect(phone.status).toBe(422);
    expect(phone.body).toEqual(validationError({ field: 'phoneNumber', reason: 'alreadyExists' }));
  });

  it('lets exactly one of several simultaneous creates with the same email win; the others get 422 validation', async () => {
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => post({ email: i % 2 ? 'RACE@example.com' : 'race@example.com' })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 422, 422, 422, 422]);
    for (const r of results.filter((r) => r.status === 422)) {
      expect(r.body).toEqual(validationError({ field: 'email', reason: 'alreadyExists' }));
    }
    const phones = await Promise.all(Array.from({ length: 3 }, () => post({ phoneNumber: '+15550142' })));
    expect(phones.map((r) => r.status).sort()).toEqual([200, 422, 422]);
    for (const r of phones.filter((r) => r.status === 422)) {
      expect(r.body).toEqual(validationError({ field: 'phoneNumber', reason: 'alreadyExists' }));
    }
  });

  it('allows the same email and phone number in another workspace', async () => {
    const other = await t.workspace({ name: 'Other' });
    expect((await post({ email: 'shared@example.com', phoneNumber: '+15550199' })).status).toBe(200);
    const res = await post({ email: 'shared@example.com', phoneNumber: '+15550199' }, other.developerToken);
    expect(res.status).toBe(200);
    expect(res.body.workspaceId).toBe(String(other.id));
  });

  it('rejects unknown fields and wrong types with the path of each', async () => {
    const res = await post({ email: 'typo@example.com', nickname: 'x', phone: '1234567', firstName: 42, lastName: null });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(
      invalidRequestData([
        { message: 'Invalid input: expected string, received number', path: ['body', 'firstName'] },
        { message: 'Invalid input: expected string, received null', path: ['body', 'lastName'] },
        { message: 'Unrecognized key: "nickname"', path: ['body', 'nickname'] },
        { message: 'Unrecognized key: "phone"', path: ['body', 'phone'] },
      ]),
    );
  });

  it('is 422 for a body that is not an object', async () => {
    for (const body of [[], 'text', 42, null]) {
      const res = await post(JSON.stringify(body));
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('invalidRequestData');
      expect(res.body.data.issues[0].path).toEqual(['body']);
    }
    const empty = await api.request('POST', '/v1/contacts', { token: ws.developerToken });
    expect(empty.status).toBe(422);
    expect(empty.body).toEqual(invalidRequestData([{ message: 'Required', path: ['body'] }]));
  });

  it('accepts only workspace API tokens: the header or ?token=, never a user access token', async () => {
    const viaQuery = await api.request('POST', '/v1/contacts', { token: ws.developerToken, tokenInQuery: true, body: { email: 'query@example.com' } });
    expect(viaQuery.status).toBe(200);
    expect(viaQuery.body).toEqual(newContact({ email: 'query@example.com' }));

    const user = await post({ email: 'user@example.com' }, ws.userToken);
    expect(user.status).toBe(403);
    expect(user.body).toEqual(forbidden({ reason: 'workspaceTokenRequired', acceptedSchemes: ['developerAccessToken', 'tokenInSearchParams'] }));
  });

  it('counts the new contact toward the monthly active contacts', async () => {
    const limited = await t.workspace({ name: 'Limited', macLimit: 1 });
    expect((await post({ email: 'first@example.com' }, limited.developerToken)).status).toBe(200);
    const res = await post({ email: 'second@example.com' }, limited.developerToken);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      defined: true,
      code: 'macLimitReached',
      status: 403,
      message: 'Monthly active contact limit reached',
      data: { limit: 1, active: 1 },
    });
  });
});
