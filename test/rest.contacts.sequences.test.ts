import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { fixtures } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

describe('GET /v1/contacts/{identifier}/sequences', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;

  beforeAll(async () => {
    t = await createTestApp();
    api = await contractClient(t);
    ws = await t.workspace();
  });
  afterAll(() => t.close());

  it('lists the sequences the contact is subscribed to, in subscription order', async () => {
    const f = fixtures(t.db, ws.id);
    const ada = await f.contact({ email: 'ada@example.com' });
    const onboarding = await f.sequence('Onboarding');
    const promo = await f.sequence('Promo');
    await f.sequence('Never subscribed');
    await f.subscribe(ada, promo);
    await f.subscribe(ada, onboarding);
    // Someone else's subscription does not show up.
    await f.subscribe(await f.contact({ email: 'grace@example.com' }), onboarding);

    const res = await api.request('GET', `/v1/contacts/email:ada@example.com/sequences`, { token: ws.developerToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [
        { sequenceId: String(promo), sequenceName: 'Promo' },
        { sequenceId: String(onboarding), sequenceName: 'Onboarding' },
      ],
    });
  });

  it('is an empty list for a contact without subscriptions', async () => {
    const lonely = await fixtures(t.db, ws.id).contact({ phone: '+15550777' });
    const res = await api.request('GET', `/v1/contacts/${lonely}/sequences`, { token: ws.userToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [] });
  });
});
