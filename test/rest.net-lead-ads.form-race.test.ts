import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unlimited } from './support/endpoints.js';
import { fixtures } from './support/fixtures.js';
import { testEngine } from './support/engine.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { validationError } from './support/rest.js';

/**
 * One automation per page and form holds when the saves race: requests sent at once for the same
 * form (or `*` and a form of the same page) give exactly one 201, and the others the 422 that names
 * the winner, never a 500 and never two owners. PostgreSQL runs them on separate connections (the
 * page's row lock makes them take turns); SQLite's single writer runs them one after another.
 */
describe(`lead-ad form claims under concurrent saves (${testEngine})`, () => {
  let t: TestApp;
  let ws: TestWorkspace;
  const PAGE = '5550001';
  const FORMS = ['6660001', '6660002', '6660003', '6660004', '6660005', '6660006'];
  const reply = { type: 'text', value: 'Thanks!' };
  const create = (name: string, formIds: string[]) =>
    t.request('POST', '/v1/net-lead-ads', { token: ws.developerToken, body: { name, pageId: PAGE, formIds, reply } });
  const owners = async () =>
    (await t.db.selectFrom('lead_ad_form_claims').select(['form_id', 'automation_id']).where('workspace_id', '=', ws.id).orderBy('form_id').execute()).map((c) => [
      c.form_id,
      String(c.automation_id),
    ]);

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    ws = await t.workspace();
    const f = fixtures(t.db, ws.id);
    const page = await f.leadPage(PAGE);
    for (const form of FORMS) await f.leadForm(page, form, `Form ${form}`);
  });
  afterAll(() => t.close());

  /** Exactly one 201; every other answer is the 422 naming the winner's claim on `claimedForm`. */
  const oneWinner = (responses: Awaited<ReturnType<typeof create>>[], claimedForm: (winner: { formIds: string[] }) => string) => {
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array(responses.length - 1).fill(422)]);
    const winner = responses.find((r) => r.status === 201)!.body;
    for (const loser of responses.filter((r) => r.status !== 201)) {
      expect(loser.body).toEqual(
        validationError({ field: 'formIds', reason: 'alreadyClaimed', pageId: PAGE, claims: [{ formId: claimedForm(winner), automationId: winner.id, automationName: winner.name }] }),
      );
    }
    return winner;
  };

  it('four creates at once for the same form: one 201, three 422 naming it (five rounds)', async () => {
    for (const form of FORMS.slice(0, 5)) {
      const responses = await Promise.all([1, 2, 3, 4].map((n) => create(`Racer ${n} for ${form}`, [form])));
      const winner = oneWinner(responses, () => form);
      expect((await owners()).filter(([f]) => f === form)).toEqual([[form, winner.id]]);
    }
    expect(await t.db.selectFrom('lead_ad_automations').select('id').where('workspace_id', '=', ws.id).execute()).toHaveLength(5);
    await t.db.deleteFrom('lead_ad_automations').where('workspace_id', '=', ws.id).execute();
  });

  it('* and a form of the same page at once: exactly one of them wins (five rounds)', async () => {
    for (let round = 0; round < 5; round++) {
      const form = FORMS[round];
      const responses = await Promise.all([create(`Every form ${round}`, ['*']), create(`One form ${round}`, [form])]);
      const winner = oneWinner(responses, (w) => w.formIds[0]);
      expect(await owners()).toEqual([[winner.formIds[0], winner.id]]);
      await t.db.deleteFrom('lead_ad_automations').where('workspace_id', '=', ws.id).execute();
    }
  });

  it('two PATCHes moving different automations onto the same free form at once: one 200, one 422', async () => {
    const f = fixtures(t.db, ws.id);
    const a = await f.leadAd('A', { pageId: PAGE, formIds: [FORMS[0]] });
    const b = await f.leadAd('B', { pageId: PAGE, formIds: [FORMS[1]] });
    const move = (id: number) => t.request('PATCH', `/v1/net-lead-ads/${id}`, { token: ws.developerToken, body: { formIds: [FORMS[5]] } });
    const [ra, rb] = await Promise.all([move(a), move(b)]);
    expect([ra.status, rb.status].sort()).toEqual([200, 422]);
    const [winner, loser, loserId] = ra.status === 200 ? [ra.body, rb.body, b] : [rb.body, ra.body, a];
    expect(loser).toEqual(validationError({ field: 'formIds', reason: 'alreadyClaimed', pageId: PAGE, claims: [{ formId: FORMS[5], automationId: winner.id, automationName: winner.name }] }));
    // The loser kept its own form.
    const kept = loserId === a ? FORMS[0] : FORMS[1];
    expect(await owners()).toEqual([[kept, String(loserId)], [FORMS[5], winner.id]].sort((x, y) => x[0].localeCompare(y[0])));
  });
});
