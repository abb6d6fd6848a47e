import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { unlimited } from './support/endpoints.js';
import { fixtures, T0 } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { digits, forbidden, invalidRequestData, isoNow, notFound } from './support/rest.js';

/** GET/POST /v1/sequences, GET/PATCH/DELETE /v1/sequences/{id}. */
describe('sequences', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let theirs: number;

  const fixture = (id: number, name: string, extra: Record<string, unknown> = {}) => ({
    id: String(id),
    name,
    isActive: true,
    folderId: null,
    createdAt: T0,
    updatedAt: T0,
    ...extra,
  });
  const stored = (id: number | string) =>
    t.db.selectFrom('sequences').select(['name', 'is_active', 'updated_at']).where('id', '=', Number(id)).executeTakeFirst();

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    api = await contractClient(t);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
    theirs = await fixtures(t.db, other.id).sequence('Their sequence');
  });
  afterAll(() => t.close());

  describe('GET /v1/sequences', () => {
    it('pages the workspace\'s sequences in creation order, with pageCount', async () => {
      const own = await t.workspace({ name: 'Lister' });
      const f = fixtures(t.db, own.id);
      const ids = [await f.sequence('Welcome'), await f.sequence('Nurture'), await f.sequence('Winback')];
      await t.db.updateTable('sequences').set({ is_active: 0 }).where('id', '=', ids[1]).execute();
      const first = await api.request('GET', '/v1/sequences?page=1&perPage=2', { token: own.userToken });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ data: [fixture(ids[0], 'Welcome'), fixture(ids[1], 'Nurture', { isActive: false })], pageCount: 2 });
      const second = await api.request('GET', '/v1/sequences?page=2&perPage=2', { token: own.developerToken });
      expect(second.body).toEqual({ data: [fixture(ids[2], 'Winback')], pageCount: 2 });
      expect((await api.request('GET', '/v1/sequences?page=3&perPage=2', { token: own.developerToken })).body).toEqual({ data: [], pageCount: 2 });
      const all = await api.request('GET', '/v1/sequences', { token: own.developerToken });
      expect(all.body.data.map((s: { name: string }) => s.name)).toEqual(['Welcome', 'Nurture', 'Winback']);
    });

    it('is empty for a workspace without sequences, and never shows another workspace\'s', async () => {
      const empty = await t.workspace({ name: 'Empty' });
      expect((await api.request('GET', '/v1/sequences', { token: empty.developerToken })).body).toEqual({ data: [], pageCount: 0 });
    });

    it('validates page and perPage, and refuses other parameters', async () => {
      const res = await api.request('GET', '/v1/sequences?page=0&perPage=51', { token: ws.developerToken });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(
        invalidRequestData([
          { message: 'page must be at least 1', path: ['query', 'page'] },
          { message: 'perPage must be at most 50', path: ['query', 'perPage'] },
        ]),
      );
      expect((await api.request('GET', '/v1/sequences?name=x', { token: ws.developerToken })).body).toEqual(
        invalidRequestData([{ message: 'Unrecognized key: "name"', path: ['query', 'name'] }]),
      );
    });

    it('needs the sequences scope', async () => {
      const contactsOnly = await t.token(ws.id, { kind: 'developer', scopes: ['contacts'] });
      expect((await api.request('GET', '/v1/sequences', { token: contactsOnly })).body).toEqual(forbidden({ reason: 'missingScope', scope: 'sequences' }));
    });
  });

  describe('POST /v1/sequences', () => {
    it('creates an active sequence unless told otherwise, name trimmed; names need not be unique', async () => {
      const res = await api.request('POST', '/v1/sequences', { token: ws.developerToken, body: { name: ' Welcome series ' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id: digits(), name: 'Welcome series', isActive: true, folderId: null, createdAt: isoNow(), updatedAt: isoNow() });
      expect(res.body.updatedAt).toBe(res.body.createdAt);
      expect((await api.request('GET', `/v1/sequences/${res.body.id}`, { token: ws.developerToken })).body).toEqual(res.body);

      const twin = await api.request('POST', '/v1/sequences', { token: ws.developerToken, body: { name: 'Welcome series', isActive: false } });
      expect(twin.status).toBe(200);
      expect(twin.body).toEqual({ id: digits(), name: 'Welcome series', isActive: false, folderId: null, createdAt: isoNow(), updatedAt: isoNow() });
      expect(twin.body.id).not.toBe(res.body.id);
    });

    it('validates the body', async () => {
      const cases: [unknown, { message: string; path: (string | number)[] }[]][] = [
        [{}, [{ message: 'Required', path: ['body', 'name'] }]],
        [{ name: ' ' }, [{ message: 'name must not be empty', path: ['body', 'name'] }]],
        [{ name: 'x'.repeat(256) }, [{ message: 'name must be at most 255 characters', path: ['body', 'name'] }]],
        [{ name: 'Ok', isActive: 'yes' }, [{ message: 'Invalid input: expected boolean, received string', path: ['body', 'isActive'] }]],
        [{ name: 'Ok', steps: [] }, [{ message: 'Unrecognized key: "steps"', path: ['body', 'steps'] }]],
      ];
      for (const [body, issues] of cases) {
        const res = await api.request('POST', '/v1/sequences', { token: ws.developerToken, body });
        expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(422);
        expect(res.body).toEqual(invalidRequestData(issues));
      }
    });

    it('needs a full token with the sequences scope, and a live trial', async () => {
      const readOnly = await t.token(ws.id, { kind: 'developer', readOnly: true });
      expect((await api.request('POST', '/v1/sequences', { token: readOnly, body: { name: 'No' } })).body).toEqual(forbidden({ reason: 'readOnlyToken' }));
      const expired = await t.workspace({ name: 'Expired', trialEndsAt: '2026-01-01T00:00:00.000Z' });
      expect((await api.request('POST', '/v1/sequences', { token: expired.developerToken, body: { name: 'No' } })).body.code).toBe('trialExpired');
      expect(await t.db.selectFrom('sequences').select('id').where('name', '=', 'No').execute()).toEqual([]);
    });
  });

  describe('GET /v1/sequences/{id}', () => {
    it('answers the sequence', async () => {
      const id = await fixtures(t.db, ws.id).sequence('Onboarding');
      const res = await api.request('GET', `/v1/sequences/${id}`, { token: ws.userToken });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(fixture(id, 'Onboarding'));
    });

    it("is 404 for an unknown id and another workspace's sequence; 422 for a non-digit id", async () => {
      for (const id of ['424242', String(theirs), '99999999999']) {
        const res = await api.request('GET', `/v1/sequences/${id}`, { token: ws.developerToken });
        expect(res.status, id).toBe(404);
        expect(res.body).toEqual(notFound('Sequence'));
      }
      expect((await api.request('GET', '/v1/sequences/welcome', { token: ws.developerToken })).body).toEqual(
        invalidRequestData([{ message: 'must be a digit string', path: ['params', 'id'] }]),
      );
    });
  });

  describe('PATCH /v1/sequences/{id}', () => {
    it('changes only the fields sent, and moves updatedAt', async () => {
      const id = await fixtures(t.db, ws.id).sequence('Drip');
      const off = await api.request('PATCH', `/v1/sequences/${id}`, { token: ws.developerToken, body: { isActive: false } });
      expect(off.status).toBe(200);
      expect(off.body).toEqual(fixture(id, 'Drip', { isActive: false, updatedAt: isoNow() }));
      expect(off.body.updatedAt > T0).toBe(true);
      const renamed = await api.request('PATCH', `/v1/sequences/${id}`, { token: ws.developerToken, body: { name: ' Slow drip ' } });
      expect(renamed.body).toEqual(fixture(id, 'Slow drip', { isActive: false, updatedAt: isoNow() }));
      const both = await api.request('PATCH', `/v1/sequences/${id}`, { token: ws.developerToken, body: { name: 'Fast drip', isActive: true } });
      expect(both.body).toEqual(fixture(id, 'Fast drip', { updatedAt: isoNow() }));
      expect((await api.request('GET', `/v1/sequences/${id}`, { token: ws.developerToken })).body).toEqual(both.body);
    });

    it('needs at least one field, each valid; a refused change changes nothing', async () => {
      const id = await fixtures(t.db, ws.id).sequence('Untouched');
      const cases: [unknown, { message: string; path: (string | number)[] }[]][] = [
        [{}, [{ message: 'Provide at least one of name, isActive or folderId', path: ['body'] }]],
        [{ name: '' }, [{ message: 'name must not be empty', path: ['body', 'name'] }]],
        [{ isActive: null }, [{ message: 'Invalid input: expected boolean, received null', path: ['body', 'isActive'] }]],
        [{ name: 'x', colour: 'red' }, [{ message: 'Unrecognized key: "colour"', path: ['body', 'colour'] }]],
      ];
      for (const [body, issues] of cases) {
        const res = await api.request('PATCH', `/v1/sequences/${id}`, { token: ws.developerToken, body });
        expect(res.status, JSON.stringify(body)).toBe(422);
        expect(res.body).toEqual(invalidRequestData(issues));
      }
      expect(await stored(id)).toEqual({ name: 'Untouched', is_active: expect.anything(), updated_at: T0 });
    });

    it("is 404 for an unknown id and another workspace's sequence, which stays as it was", async () => {
      for (const id of ['424242', String(theirs)]) {
        const res = await api.request('PATCH', `/v1/sequences/${id}`, { token: ws.developerToken, body: { name: 'Hijacked' } });
        expect(res.status).toBe(404);
        expect(res.body).toEqual(notFound('Sequence'));
      }
      expect((await stored(theirs))?.name).toBe('Their sequence');
    });
  });

  describe('DELETE /v1/sequences/{id}', () => {
    it('deletes the sequence and every subscription to it; other sequences keep theirs', async () => {
      const f = fixtures(t.db, ws.id);
      const doomed = await f.sequence('Doomed');
      const kept = await f.sequence('Kept');
      const ada = await f.contact({ email: 'ada@example.com' });
      const grace = await f.contact({ email: 'grace@example.com' });
      for (const c of [ada, grace]) {
        await f.subscribe(c, doomed);
        await f.subscribe(c, kept);
      }
      const res = await api.request('DELETE', `/v1/sequences/${doomed}`, { token: ws.developerToken });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
      expect(await stored(doomed)).toBeUndefined();
      const left = await t.db.selectFrom('sequence_subscriptions').select(['contact_id', 'sequence_id']).where('contact_id', 'in', [ada, grace]).orderBy('id').execute();
      expect(left).toEqual([
        { contact_id: ada, sequence_id: kept },
        { contact_id: grace, sequence_id: kept },
      ]);
      expect((await api.request('GET', `/v1/contacts/${ada}/sequences`, { token: ws.developerToken })).body).toEqual({ data: [{ sequenceId: String(kept), sequenceName: 'Kept' }] });
      expect((await api.request('GET', `/v1/sequences/${doomed}`, { token: ws.developerToken })).status).toBe(404);
      expect((await api.request('DELETE', `/v1/sequences/${doomed}`, { token: ws.developerToken })).body).toEqual(notFound('Sequence'));
    });

    it("is 404 for another workspace's sequence, which stays with its subscriptions", async () => {
      const of = fixtures(t.db, other.id);
      await of.subscribe(await of.contact({ email: 'theirs@example.com' }), theirs);
      const res = await api.request('DELETE', `/v1/sequences/${theirs}`, { token: ws.developerToken });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound('Sequence'));
      expect((await stored(theirs))?.name).toBe('Their sequence');
      expect(await t.db.selectFrom('sequence_subscriptions').select('id').where('sequence_id', '=', theirs).execute()).toHaveLength(1);
    });

    it('needs a full token; stays open when the trial has ended', async () => {
      const id = await fixtures(t.db, ws.id).sequence('Guarded');
      const readOnly = await t.token(ws.id, { kind: 'developer', readOnly: true });
      expect((await api.request('DELETE', `/v1/sequences/${id}`, { token: readOnly })).body).toEqual(forbidden({ reason: 'readOnlyToken' }));
      expect(await stored(id)).toBeDefined();
      const expired = await t.workspace({ name: 'Expired too', trialEndsAt: '2026-01-01T00:00:00.000Z' });
      const old = await fixtures(t.db, expired.id).sequence('Old');
      expect((await api.request('DELETE', `/v1/sequences/${old}`, { token: expired.developerToken })).body).toEqual({ success: true });
    });
  });
});
