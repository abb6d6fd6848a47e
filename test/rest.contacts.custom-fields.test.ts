import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { fixtures } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

describe('GET /v1/contacts/{identifier}/custom-fields', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  let ada: number;
  let bare: number;
  const field: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp();
    api = await contractClient(t);
    ws = await t.workspace();
    const f = fixtures(t.db, ws.id);
    field.plan = String(await f.customField('Plan'));
    field.birthday = String(await f.customField('Birthday', 'date', 'Day of birth'));
    field.score = String(await f.customField('Score', 'number'));
    ada = await f.contact({ email: 'ada@example.com' });
    bare = await f.contact({ email: 'bare@example.com' });
    await f.fieldValue(ada, Number(field.score), '42');
    await f.fieldValue(ada, Number(field.plan), 'gold');

    const other = await t.workspace({ name: 'Other' });
    const g = fixtures(t.db, other.id);
    const foreign = await g.customField('Foreign');
    await g.fieldValue(await g.contact({ email: 'x@example.com' }), foreign, 'nope');
  });
  afterAll(() => t.close());

  it("lists every custom field of the workspace with the contact's value, in field order", async () => {
    const res = await api.request('GET', `/v1/contacts/${ada}/custom-fields`, { token: ws.developerToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [
        { id: field.plan, name: 'Plan', description: '', value: 'gold', type: 'shortText' },
        { id: field.birthday, name: 'Birthday', description: 'Day of birth', value: '', type: 'date' },
        { id: field.score, name: 'Score', description: '', value: '42', type: 'number' },
      ],
    });
  });

  it('gives an empty string for every field the contact has no value for', async () => {
    const res = await api.request('GET', `/v1/contacts/bare@example.com/custom-fields`, { token: ws.userToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [
        { id: field.plan, name: 'Plan', description: '', value: '', type: 'shortText' },
        { id: field.birthday, name: 'Birthday', description: 'Day of birth', value: '', type: 'date' },
        { id: field.score, name: 'Score', description: '', value: '', type: 'number' },
      ],
    });
    expect(bare).toBeGreaterThan(0);
  });

  it('is an empty list in a workspace without custom fields', async () => {
    const empty = await t.workspace({ name: 'Empty' });
    const contact = await fixtures(t.db, empty.id).contact({ phone: '+15550123' });
    const res = await api.request('GET', `/v1/contacts/${contact}/custom-fields`, { token: empty.developerToken, tokenInQuery: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [] });
  });
});
