import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { envelopes, unlimited } from './support/endpoints.js';
import { fixtures, T0 } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { forbidden, invalidRequestData, isoNow, notFound } from './support/rest.js';

const missing = (resource: string, ids: string[]) => ({ ...envelopes.notFound, data: { resource, ids } });

/**
 * A contact's subscriptions: POST, DELETE and PUT /v1/contacts/{identifier}/sequences, and
 * POST /v1/contacts/bulk/sequences (GET is rest.contacts.sequences.test.ts).
 */
describe("changing a contact's sequences", () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let f: ReturnType<typeof fixtures>;
  let serial = 0;
  const seq = { welcome: 0, promo: 0, paused: 0, theirs: 0 };
  let theirContact: number;

  const newContact = () => f.contact({ email: `s${++serial}@example.com` });
  /** The contact's subscriptions as stored, in subscription order. */
  const rowsOf = (contactId: number) =>
    t.db.selectFrom('sequence_subscriptions').select(['sequence_id', 'created_at']).where('contact_id', '=', contactId).orderBy('id').execute();
  const sequencesOf = async (contactId: number) => (await rowsOf(contactId)).map((r) => r.sequence_id);
  const send = (method: string, identifier: string | number, body: unknown, token = ws.developerToken) =>
    api.request(method, `/v1/contacts/${identifier}/sequences`, { token, body });
  const ids = (...list: number[]) => list.map(String);

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    api = await contractClient(t);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
    f = fixtures(t.db, ws.id);
    seq.welcome = await f.sequence('Welcome');
    seq.promo = await f.sequence('Promo');
    seq.paused = await f.sequence('Paused');
    await t.db.updateTable('sequences').set({ is_active: 0 }).where('id', '=', seq.paused).execute();
    const of = fixtures(t.db, other.id);
    seq.theirs = await of.sequence('Theirs');
    theirContact = await of.contact({ email: 'theirs@example.com' });
    await of.subscribe(theirContact, seq.theirs);
  });
  afterAll(() => t.close());

  describe('POST /v1/contacts/{identifier}/sequences', () => {
    it('subscribes in the order given; an existing subscription is untouched; inactive sequences take subscribers', async () => {
      const c = await f.contact({ email: 'ada@example.com' });
      await f.subscribe(c, seq.promo);
      const res = await send('POST', 'email:ada@example.com', { sequenceIds: ids(seq.paused, seq.promo, seq.welcome, seq.paused) });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
      expect(await rowsOf(c)).toEqual([
        { sequence_id: seq.promo, created_at: T0 },
        { sequence_id: seq.paused, created_at: isoNow() },
        { sequence_id: seq.welcome, created_at: isoNow() },
      ]);
      const listed = await api.request('GET', `/v1/contacts/${c}/sequences`, { token: ws.developerToken });
      expect(listed.body).toEqual({
        data: [
          { sequenceId: String(seq.promo), sequenceName: 'Promo' },
          { sequenceId: String(seq.paused), sequenceName: 'Paused' },
          { sequenceId: String(seq.welcome), sequenceName: 'Welcome' },
        ],
      });
      expect((await send('POST', c, { sequenceIds: ids(seq.welcome) })).body).toEqual({ success: true });
      expect(await sequencesOf(c)).toEqual([seq.promo, seq.paused, seq.welcome]);
    });

    it("is 404 Sequence naming unknown and other workspace's ids, and changes nothing", async () => {
      const c = await newContact();
      await f.subscribe(c, seq.promo);
      const res = await send('POST', c, { sequenceIds: ['424242', String(seq.welcome), String(seq.theirs)] });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(missing('Sequence', ['424242', String(seq.theirs)]));
      expect(await sequencesOf(c)).toEqual([seq.promo]);
    });

    it("is 404 Contact for an unknown contact and another workspace's; B's token cannot subscribe A's contacts", async () => {
      for (const identifier of ['424242', String(theirContact), 'theirs@example.com']) {
        expect((await send('POST', identifier, { sequenceIds: ids(seq.welcome) })).body).toEqual(notFound('Contact'));
      }
      const c = await newContact();
      expect((await send('POST', c, { sequenceIds: ids(seq.theirs) }, other.developerToken)).body).toEqual(notFound('Contact'));
      expect(await sequencesOf(c)).toEqual([]);
      expect(await sequencesOf(theirContact)).toEqual([seq.theirs]);
    });

    it('validates the body: 1 to 100 digit-string ids', async () => {
      const c = await newContact();
      const cases: [unknown, { message: string; path: (string | number)[] }[]][] = [
        [{}, [{ message: 'Required', path: ['body', 'sequenceIds'] }]],
        [{ sequenceIds: [] }, [{ message: 'sequenceIds must hold at least 1 id', path: ['body', 'sequenceIds'] }]],
        [{ sequenceIds: Array.from({ length: 101 }, () => '1') }, [{ message: 'sequenceIds must hold at most 100 ids', path: ['body', 'sequenceIds'] }]],
        [{ sequenceIds: ['x1'] }, [{ message: 'must be a digit string', path: ['body', 'sequenceIds', 0] }]],
        [{ sequenceIds: ['1'], tagIds: [] }, [{ message: 'Unrecognized key: "tagIds"', path: ['body', 'tagIds'] }]],
      ];
      for (const [body, issues] of cases) {
        const res = await send('POST', c, body);
        expect(res.status).toBe(422);
        expect(res.body).toEqual(invalidRequestData(issues));
      }
    });

    it('needs a full token with the contacts scope (not the sequences scope)', async () => {
      const c = await newContact();
      const readOnly = await t.token(ws.id, { kind: 'developer', readOnly: true });
      const sequencesOnly = await t.token(ws.id, { kind: 'developer', scopes: ['sequences'] });
      expect((await send('POST', c, { sequenceIds: ids(seq.welcome) }, readOnly)).body).toEqual(forbidden({ reason: 'readOnlyToken' }));
      expect((await send('POST', c, { sequenceIds: ids(seq.welcome) }, sequencesOnly)).body).toEqual(forbidden({ reason: 'missingScope', scope: 'contacts' }));
      expect(await sequencesOf(c)).toEqual([]);
    });
  });

  describe('DELETE /v1/contacts/{identifier}/sequences', () => {
    it('unsubscribes; a sequence the contact is not in is harmless; others keep theirs', async () => {
      const c = await newContact();
      const d = await newContact();
      for (const s of [seq.welcome, seq.promo, seq.paused]) {
        await f.subscribe(c, s);
        await f.subscribe(d, s);
      }
      const res = await send('DELETE', c, { sequenceIds: ids(seq.welcome, seq.paused) });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
      expect(await sequencesOf(c)).toEqual([seq.promo]);
      expect((await send('DELETE', c, { sequenceIds: ids(seq.welcome) })).body).toEqual({ success: true });
      expect(await sequencesOf(c)).toEqual([seq.promo]);
      expect(await sequencesOf(d)).toEqual([seq.welcome, seq.promo, seq.paused]);
    });

    it('is 404 for unknown ids or contacts, and changes nothing', async () => {
      const c = await newContact();
      await f.subscribe(c, seq.welcome);
      expect((await send('DELETE', c, { sequenceIds: ids(seq.welcome, seq.theirs) })).body).toEqual(missing('Sequence', [String(seq.theirs)]));
      expect(await sequencesOf(c)).toEqual([seq.welcome]);
      expect((await send('DELETE', '424242', { sequenceIds: ids(seq.welcome) })).body).toEqual(notFound('Contact'));
      expect((await send('DELETE', theirContact, { sequenceIds: ids(seq.theirs) })).body).toEqual(notFound('Contact'));
      expect(await sequencesOf(theirContact)).toEqual([seq.theirs]);
    });
  });

  describe('PUT /v1/contacts/{identifier}/sequences', () => {
    it('leaves exactly these subscriptions; kept ones keep their place and time', async () => {
      const c = await newContact();
      await f.subscribe(c, seq.welcome);
      await f.subscribe(c, seq.promo);
      const res = await send('PUT', c, { sequenceIds: ids(seq.paused, seq.promo) });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
      expect(await rowsOf(c)).toEqual([
        { sequence_id: seq.promo, created_at: T0 },
        { sequence_id: seq.paused, created_at: isoNow() },
      ]);
      expect((await send('PUT', c, { sequenceIds: [] })).body).toEqual({ success: true });
      expect(await sequencesOf(c)).toEqual([]);
    });

    it('is 404 for unknown ids, and changes nothing', async () => {
      const c = await newContact();
      await f.subscribe(c, seq.welcome);
      expect((await send('PUT', c, { sequenceIds: ['424242'] })).body).toEqual(missing('Sequence', ['424242']));
      expect(await sequencesOf(c)).toEqual([seq.welcome]);
    });
  });

  describe('POST /v1/contacts/bulk/sequences', () => {
    const bulk = (body: unknown, token = ws.developerToken) => api.request('POST', '/v1/contacts/bulk/sequences', { token, body });

    it('subscribes every contact to every sequence; affected counts the contacts that gained one', async () => {
      const [a, b, c] = [await newContact(), await newContact(), await newContact()];
      await f.subscribe(b, seq.promo);
      await f.subscribe(c, seq.promo);
      await f.subscribe(c, seq.welcome);
      const res = await bulk({ contactIds: ids(c, b, a, b), sequenceIds: ids(seq.welcome, seq.promo) });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, affected: 2 });
      expect(await sequencesOf(a)).toEqual([seq.welcome, seq.promo]);
      expect(await rowsOf(b)).toEqual([
        { sequence_id: seq.promo, created_at: T0 },
        { sequence_id: seq.welcome, created_at: isoNow() },
      ]);
      expect(await sequencesOf(c)).toEqual([seq.promo, seq.welcome]);
      expect((await bulk({ contactIds: ids(a), sequenceIds: ids(seq.promo) })).body).toEqual({ success: true, affected: 0 });
    });

    it('is 404 naming unknown contacts, then unknown sequences; nothing changes', async () => {
      const a = await newContact();
      expect((await bulk({ contactIds: ids(a, theirContact), sequenceIds: ['424242'] })).body).toEqual(missing('Contact', [String(theirContact)]));
      expect((await bulk({ contactIds: ids(a), sequenceIds: ids(seq.welcome, seq.theirs) })).body).toEqual(missing('Sequence', [String(seq.theirs)]));
      expect(await sequencesOf(a)).toEqual([]);
      expect(await sequencesOf(theirContact)).toEqual([seq.theirs]);
    });

    it('validates the body and needs a full token with the contacts scope', async () => {
      const res = await bulk({ contactIds: Array.from({ length: 1001 }, (_, i) => String(i + 1)), sequenceIds: [] });
      expect(res.body).toEqual(
        invalidRequestData([
          { message: 'contactIds must hold at most 1000 ids', path: ['body', 'contactIds'] },
          { message: 'sequenceIds must hold at least 1 id', path: ['body', 'sequenceIds'] },
        ]),
      );
      const a = await newContact();
      const readOnly = await t.token(ws.id, { kind: 'developer', readOnly: true });
      expect((await bulk({ contactIds: ids(a), sequenceIds: ids(seq.welcome) }, readOnly)).body).toEqual(forbidden({ reason: 'readOnlyToken' }));
      expect((await bulk({ contactIds: ids(a), sequenceIds: ids(seq.theirs) }, other.developerToken)).body).toEqual(missing('Contact', [String(a)]));
      expect(await sequencesOf(a)).toEqual([]);
    });
  });

  describe('GET /v1/contacts/{identifier}/sequences', () => {
    it("is 404 Contact for an unknown contact and another workspace's", async () => {
      for (const identifier of ['424242', String(theirContact), 'email:theirs@example.com']) {
        const res = await api.request('GET', `/v1/contacts/${identifier}/sequences`, { token: ws.developerToken });
        expect(res.status).toBe(404);
        expect(res.body).toEqual(notFound('Contact'));
      }
    });
  });
});
