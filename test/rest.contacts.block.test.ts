import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { unlimited } from './support/endpoints.js';
import { fixtures, T0 } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { forbidden, invalidRequestData, isoNow, notFound } from './support/rest.js';

describe('POST /v1/contacts/{identifier}/block and /unblock', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  const call = (action: 'block' | 'unblock', identifier: string | number, token = ws.developerToken, body?: unknown) =>
    api.request('POST', `/v1/contacts/${identifier}/${action}`, { token, body });

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    api = await contractClient(t);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
  });
  afterAll(() => t.close());

  it('sets blockedAt and answers the whole contact; blocking again keeps the first blockedAt', async () => {
    const id = await fixtures(t.db, ws.id).contact({ email: 'spam@example.com', firstName: 'Spam' });
    const res = await call('block', 'spam@example.com');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: String(id),
      avatar: null,
      phoneNumber: null,
      email: 'spam@example.com',
      firstName: 'Spam',
      lastName: null,
      fullName: 'Spam',
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
      createdAt: T0,
      updatedAt: isoNow(),
      lastReadAt: null,
      subscribedAt: null,
      broadcastSubscribedAt: null,
      blockedAt: isoNow(),
      contactCustomFields: [],
      tags: [],
      contactNotes: [],
      contactInboxes: [],
    });
    expect(res.body.blockedAt).toBe(res.body.updatedAt);

    const again = await call('block', id, ws.developerToken, {});
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
  });

  it('clears blockedAt; unblocking a contact that is not blocked changes nothing', async () => {
    const id = await fixtures(t.db, ws.id).contact({ email: 'sorry@example.com' });
    const blocked = (await call('block', id)).body;
    const res = await call('unblock', `id:${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...blocked, blockedAt: null, updatedAt: isoNow() });
    const again = await call('unblock', id);
    expect(again.body).toEqual(res.body);
    // A fixture contact that was never blocked keeps its updatedAt.
    const never = await fixtures(t.db, ws.id).contact({ email: 'never@example.com' });
    expect((await call('unblock', never)).body).toMatchObject({ blockedAt: null, updatedAt: T0 });
  });

  it("is 404 for an unknown or another workspace's contact, which stays unblocked", async () => {
    const theirs = await fixtures(t.db, other.id).contact({ email: 'theirs@example.com' });
    for (const action of ['block', 'unblock'] as const) {
      for (const identifier of ['424242', String(theirs), 'theirs@example.com']) {
        const res = await call(action, identifier);
        expect(res.status).toBe(404);
        expect(res.body).toEqual(notFound('Contact'));
      }
    }
    const row = await t.db.selectFrom('contacts').select('blocked_at').where('id', '=', theirs).executeTakeFirstOrThrow();
    expect(row.blocked_at).toBeNull();
  });

  it('takes no body fields, and needs a full token with the contacts scope', async () => {
    const id = await fixtures(t.db, ws.id).contact({ email: 'rules@example.com' });
    expect((await call('block', id, ws.developerToken, { reason: 'spam' })).body).toEqual(
      invalidRequestData([{ message: 'Unrecognized key: "reason"', path: ['body', 'reason'] }]),
    );
    const readOnly = await t.token(ws.id, { kind: 'developer', readOnly: true });
    expect((await call('block', id, readOnly)).body).toEqual(forbidden({ reason: 'readOnlyToken' }));
    const tagsOnly = await t.token(ws.id, { kind: 'developer', scopes: ['tags'] });
    expect((await call('unblock', id, tagsOnly)).body).toEqual(forbidden({ reason: 'missingScope', scope: 'contacts' }));
    // A user access token may block.
    expect((await call('block', id, ws.userToken)).body.blockedAt).toEqual(isoNow());
  });
});
