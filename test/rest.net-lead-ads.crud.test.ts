import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { unlimited } from './support/endpoints.js';
import { fixtures, T0 } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { digits, forbidden, invalidRequestData, isoNow, notFound, validationError } from './support/rest.js';

/** GET/POST /v1/net-lead-ads, GET/PATCH /v1/net-lead-ads/{id}: whole bodies, references, merge rules, tenants. */
describe('lead-ad automations', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  const PAGE = '5550001';
  const SECOND_PAGE = '5550002';
  const [COUPON, WEBINAR, ARCHIVED, OTHER_PAGE_FORM] = ['6660001', '6660002', '6660003', '6660004'];
  let ids: { plan: number; phone: number; vip: number; lead: number; gone: number; welcome: number; nurture: number };
  let theirs: { page: string; form: string; field: number; tag: number; sequence: number; automation: number };

  const reply = { type: 'text', value: 'Thanks {{first_name}}!' };
  const body = (extra: Record<string, unknown> = {}) => ({ name: 'Spring leads', pageId: PAGE, formIds: [COUPON], reply, ...extra });
  const token = () => ({ token: ws.developerToken });
  const post = (b: unknown, options = token()) => api.request('POST', '/v1/net-lead-ads', { ...options, body: b });
  const patch = (id: number | string, b: unknown, options = token()) => api.request('PATCH', `/v1/net-lead-ads/${id}`, { ...options, body: b });
  const get = (id: number | string, options = token()) => api.request('GET', `/v1/net-lead-ads/${id}`, options);
  /** The rows an automation owns, as stored. */
  const stored = async (id: number | string) => ({
    claims: (await t.db.selectFrom('lead_ad_form_claims').select(['page_id', 'form_id']).where('automation_id', '=', Number(id)).orderBy('id').execute()).map((c) => `${c.page_id}/${c.form_id}`),
    mappings: (await t.db.selectFrom('lead_ad_field_mappings').select(['question_key', 'custom_field_id']).where('automation_id', '=', Number(id)).orderBy('id').execute()).map(
      (m) => `${m.question_key}->${m.custom_field_id}`,
    ),
    tags: (await t.db.selectFrom('lead_ad_tags').select('tag_id').where('automation_id', '=', Number(id)).orderBy('id').execute()).map((r) => r.tag_id),
    sequences: (await t.db.selectFrom('lead_ad_sequences').select('sequence_id').where('automation_id', '=', Number(id)).orderBy('id').execute()).map((r) => r.sequence_id),
  });
  const countOf = async (workspaceId: number) => (await t.db.selectFrom('lead_ad_automations').select('id').where('workspace_id', '=', workspaceId).execute()).length;
  /** A fixture automation as the API answers it. */
  const answered = (id: number, name: string, extra: Record<string, unknown> = {}) => ({
    id: String(id),
    createdAt: T0,
    updatedAt: T0,
    name,
    pageId: PAGE,
    formIds: [COUPON],
    isActive: true,
    reply: { type: 'text', value: 'Hi' },
    fieldMappings: [],
    tagIds: [],
    sequenceIds: [],
    ...extra,
  });

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    api = await contractClient(t);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
    const f = fixtures(t.db, ws.id);
    const page = await f.leadPage(PAGE, 'Bloom & Co.', { inboxId: await f.inbox('Page inbox', 'net') });
    await f.leadForm(page, COUPON, 'Spring coupon');
    await f.leadForm(page, WEBINAR, 'Webinar', {
      questions: [
        { key: 'email', label: 'Email', type: 'EMAIL' },
        { key: 'phone_number', label: 'Phone', type: 'PHONE' },
      ],
    });
    await f.leadForm(page, ARCHIVED, 'Wholesale', { status: 'archived', questions: [{ key: 'order_volume', label: 'Orders per month', type: 'CUSTOM' }] });
    await f.leadForm(await f.leadPage(SECOND_PAGE, 'Second page'), OTHER_PAGE_FORM, 'Other page form');
    ids = {
      plan: await f.customField('Plan'),
      phone: await f.customField('Phone', 'phone'),
      vip: await f.tag('vip'),
      lead: await f.tag('lead'),
      gone: await f.tag('gone', { deletedAt: T0 }),
      welcome: await f.sequence('Welcome'),
      nurture: await f.sequence('Nurture'),
    };
    const g = fixtures(t.db, other.id);
    theirs = { page: '5559999', form: '6669999', field: await g.customField('Their field'), tag: await g.tag('theirs'), sequence: await g.sequence('Theirs'), automation: 0 };
    await g.leadForm(await g.leadPage(theirs.page), theirs.form, 'Their form');
    theirs.automation = await g.leadAd('Their automation', { pageId: theirs.page, formIds: [theirs.form] });
  });
  afterAll(() => t.close());

  describe('GET /v1/net-lead-ads', () => {
    it('pages the automations newest first (ties: newest id first), with their relations and pageCount', async () => {
      const own = await t.workspace({ name: 'Lister' });
      const f = fixtures(t.db, own.id);
      const field = await f.customField('Company');
      const tag = await f.tag('vip');
      const sequence = await f.sequence('Welcome');
      const oldest = await f.leadAd('Oldest', { pageId: PAGE, formIds: [COUPON], at: '2026-11-01T09:00:00.000Z' });
      const tieA = await f.leadAd('Tie A', { pageId: PAGE, formIds: [WEBINAR], at: T0, isActive: false });
      const tieB = await f.leadAd('Tie B', {
        pageId: PAGE,
        formIds: [ARCHIVED],
        at: T0,
        fieldMappings: [{ questionKey: 'company', customFieldId: field }],
        tagIds: [tag],
        sequenceIds: [sequence],
      });
      const first = await api.request('GET', '/v1/net-lead-ads?page=1&perPage=2', { token: own.userToken });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        data: [
          answered(tieB, 'Tie B', { formIds: [ARCHIVED], fieldMappings: [{ questionKey: 'company', customFieldId: String(field) }], tagIds: [String(tag)], sequenceIds: [String(sequence)] }),
          answered(tieA, 'Tie A', { formIds: [WEBINAR], isActive: false }),
        ],
        pageCount: 2,
      });
      const second = await api.request('GET', '/v1/net-lead-ads?page=2&perPage=2', { token: own.developerToken });
      expect(second.body).toEqual({
        data: [answered(oldest, 'Oldest', { createdAt: '2026-11-01T09:00:00.000Z', updatedAt: '2026-11-01T09:00:00.000Z' })],
        pageCount: 2,
      });
      expect((await api.request('GET', '/v1/net-lead-ads?page=3&perPage=2', { token: own.developerToken })).body).toEqual({ data: [], pageCount: 2 });
    });

    it('keyword keeps names that contain it in any case; wildcards are literal; an empty keyword filters nothing', async () => {
      const own = await t.workspace({ name: 'Keywords' });
      const f = fixtures(t.db, own.id);
      const spring = await f.leadAd('Spring coupon', { at: '2026-11-01T10:00:01.000Z' });
      const percent = await f.leadAd('100% off', { at: '2026-11-01T10:00:02.000Z' });
      await f.leadAd('Webinar', { at: '2026-11-01T10:00:03.000Z' });
      const names = async (query: string) =>
        (await api.request('GET', `/v1/net-lead-ads${query}`, { token: own.developerToken })).body.data.map((a: { id: string; name: string }) => [a.id, a.name]);
      expect(await names('?keyword=SPRING')).toEqual([[String(spring), 'Spring coupon']]);
      expect(await names('?keyword=%25')).toEqual([[String(percent), '100% off']]);
      expect(await names('?keyword=_')).toEqual([]);
      expect(await names('?keyword=')).toHaveLength(3);
      expect((await api.request('GET', '/v1/net-lead-ads?keyword=nothing', { token: own.developerToken })).body).toEqual({ data: [], pageCount: 0 });
    });

    it("never shows another workspace's automations", async () => {
      const empty = await t.workspace({ name: 'Empty' });
      expect((await api.request('GET', '/v1/net-lead-ads', { token: empty.developerToken })).body).toEqual({ data: [], pageCount: 0 });
    });

    it('validates page, perPage and keyword, and refuses other parameters', async () => {
      const res = await api.request('GET', `/v1/net-lead-ads?page=0&perPage=51&keyword=${'k'.repeat(256)}`, token());
      expect(res.status).toBe(422);
      expect(res.body).toEqual(
        invalidRequestData([
          { message: 'page must be at least 1', path: ['query', 'page'] },
          { message: 'perPage must be at most 50', path: ['query', 'perPage'] },
          { message: 'keyword must be at most 255 characters', path: ['query', 'keyword'] },
        ]),
      );
      expect((await api.request('GET', '/v1/net-lead-ads?name=x', token())).body).toEqual(invalidRequestData([{ message: 'Unrecognized key: "name"', path: ['query', 'name'] }]));
    });
  });

  describe('GET /v1/net-lead-ads/{id}', () => {
    it('answers the automation with its mappings, live tags and sequences, in the order given', async () => {
      const id = await fixtures(t.db, ws.id).leadAd('Read me', {
        pageId: PAGE,
        formIds: ['*'],
        reply: { type: 'flow', value: 'welcome-flow' },
        fieldMappings: [
          { questionKey: 'phone_number', customFieldId: ids.phone },
          { questionKey: 'company', customFieldId: ids.plan },
        ],
        tagIds: [ids.lead, ids.gone, ids.vip],
        sequenceIds: [ids.nurture, ids.welcome],
      });
      const res = await get(id, { token: ws.userToken });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(
        answered(id, 'Read me', {
          formIds: ['*'],
          reply: { type: 'flow', value: 'welcome-flow' },
          fieldMappings: [
            { questionKey: 'phone_number', customFieldId: String(ids.phone) },
            { questionKey: 'company', customFieldId: String(ids.plan) },
          ],
          // The deleted tag has left it.
          tagIds: [String(ids.lead), String(ids.vip)],
          sequenceIds: [String(ids.nurture), String(ids.welcome)],
        }),
      );
      await t.db.deleteFrom('lead_ad_automations').where('id', '=', id).execute();
    });

    it("is 404 for another workspace's automation and for unknown ids; 422 for ids that are not digit strings", async () => {
      for (const id of [theirs.automation, 0, 424242, '99999999999999999999']) {
        const res = await get(id);
        expect(res.status, String(id)).toBe(404);
        expect(res.body).toEqual(notFound('Lead-ad automation'));
      }
      expect((await get('abc')).body).toEqual(invalidRequestData([{ message: 'must be a digit string', path: ['params', 'id'] }]));
    });

    it('needs the automations scope', async () => {
      const tagsOnly = await t.token(ws.id, { kind: 'developer', scopes: ['tags'] });
      expect((await get(theirs.automation, { token: tagsOnly })).body).toEqual(forbidden({ reason: 'missingScope', scope: 'automations' }));
    });
  });

  describe('POST /v1/net-lead-ads', () => {
    it('creates an active automation (201 + Location) with its claims, mappings, tags and sequences; GET reads it back', async () => {
      const res = await post(
        body({
          name: '  Spring leads  ',
          formIds: [WEBINAR, COUPON],
          fieldMappings: [
            { questionKey: 'phone_number', customFieldId: String(ids.phone) },
            { questionKey: 'company', customFieldId: String(ids.plan) },
          ],
          tagIds: [String(ids.vip), String(ids.lead), String(ids.vip)],
          sequenceIds: [String(ids.welcome)],
        }),
      );
      expect(res.status).toBe(201);
      const expected = {
        id: digits(),
        createdAt: isoNow(),
        updatedAt: isoNow(),
        name: 'Spring leads',
        pageId: PAGE,
        formIds: [WEBINAR, COUPON],
        isActive: true,
        reply,
        fieldMappings: [
          { questionKey: 'phone_number', customFieldId: String(ids.phone) },
          { questionKey: 'company', customFieldId: String(ids.plan) },
        ],
        tagIds: [String(ids.vip), String(ids.lead)],
        sequenceIds: [String(ids.welcome)],
      };
      expect(res.body).toEqual(expected);
      expect(res.headers.get('location')).toBe(`/v1/net-lead-ads/${res.body.id}`);
      expect(res.body.updatedAt).toBe(res.body.createdAt);
      expect((await get(res.body.id)).body).toEqual(res.body);
      expect(await stored(res.body.id)).toEqual({
        claims: [`${PAGE}/${WEBINAR}`, `${PAGE}/${COUPON}`],
        mappings: [`phone_number->${ids.phone}`, `company->${ids.plan}`],
        tags: [ids.vip, ids.lead],
        sequences: [ids.welcome],
      });
      await api.request('DELETE', `/v1/net-lead-ads/${res.body.id}`, token());
      // The delete took its claims with it: the forms are free again.
      expect(await stored(res.body.id)).toEqual({ claims: [], mappings: [], tags: [], sequences: [] });
    });

    it('takes ["*"] for every form of the page, an archived form, and isActive false; relations default to none', async () => {
      const every = await post(body({ formIds: ['*'], isActive: false, fieldMappings: [{ questionKey: 'order_volume', customFieldId: String(ids.plan) }] }));
      expect(every.status).toBe(201);
      expect(every.body).toMatchObject({ formIds: ['*'], isActive: false, fieldMappings: [{ questionKey: 'order_volume', customFieldId: String(ids.plan) }], tagIds: [], sequenceIds: [] });
      expect(await stored(every.body.id)).toEqual({ claims: [`${PAGE}/*`], mappings: [`order_volume->${ids.plan}`], tags: [], sequences: [] });
      await api.request('DELETE', `/v1/net-lead-ads/${every.body.id}`, token());

      const archived = await post(body({ formIds: [ARCHIVED] }));
      expect(archived.status).toBe(201);
      expect(archived.body).toMatchObject({ formIds: [ARCHIVED], fieldMappings: [], tagIds: [], sequenceIds: [], isActive: true });
      await api.request('DELETE', `/v1/net-lead-ads/${archived.body.id}`, token());
    });

    it('one automation per page and form: a claimed form, * against a claimed form and a form against *, are 422 naming them', async () => {
      const f = fixtures(t.db, ws.id);
      const holder = await f.leadAd('Coupon holder', { pageId: PAGE, formIds: [COUPON] });
      const before = await countOf(ws.id);
      const same = await post(body({ formIds: [WEBINAR, COUPON] }));
      expect(same.status).toBe(422);
      expect(same.body).toEqual(
        validationError({ field: 'formIds', reason: 'alreadyClaimed', pageId: PAGE, claims: [{ formId: COUPON, automationId: String(holder), automationName: 'Coupon holder' }] }),
      );
      const every = await post(body({ formIds: ['*'] }));
      expect(every.body).toEqual(
        validationError({ field: 'formIds', reason: 'alreadyClaimed', pageId: PAGE, claims: [{ formId: COUPON, automationId: String(holder), automationName: 'Coupon holder' }] }),
      );
      expect(await countOf(ws.id)).toBe(before);

      // Another form of the page is free; then the page's * is held by neither and a new * is refused by both.
      const webinar = await post(body({ name: 'Webinar', formIds: [WEBINAR] }));
      expect(webinar.status).toBe(201);
      const both = await post(body({ formIds: ['*'] }));
      expect(both.body.data.claims).toEqual([
        { formId: COUPON, automationId: String(holder), automationName: 'Coupon holder' },
        { formId: WEBINAR, automationId: webinar.body.id, automationName: 'Webinar' },
      ]);
      await t.db.deleteFrom('lead_ad_automations').where('id', 'in', [holder, Number(webinar.body.id)]).execute();

      const star = await f.leadAd('Every form', { pageId: PAGE, formIds: ['*'] });
      const under = await post(body({ formIds: [ARCHIVED] }));
      expect(under.body).toEqual(validationError({ field: 'formIds', reason: 'alreadyClaimed', pageId: PAGE, claims: [{ formId: '*', automationId: String(star), automationName: 'Every form' }] }));
      // Another page is another matter.
      const elsewhere = await post(body({ pageId: SECOND_PAGE, formIds: [OTHER_PAGE_FORM] }));
      expect(elsewhere.status).toBe(201);
      await t.db.deleteFrom('lead_ad_automations').where('id', 'in', [star, Number(elsewhere.body.id)]).execute();
    });

    it('checks every reference: page, forms of that page, question keys of the chosen forms, fields, live tags, sequences (422, nothing stored)', async () => {
      const before = await countOf(ws.id);
      const refused = async (b: unknown, data: unknown) => {
        const res = await post(b);
        expect(res.status, JSON.stringify(b)).toBe(422);
        expect(res.body).toEqual(validationError(data));
      };
      await refused(body({ pageId: '123' }), { field: 'pageId', reason: 'notFound', ids: ['123'] });
      await refused(body({ formIds: [COUPON, OTHER_PAGE_FORM, '42'] }), { field: 'formIds', reason: 'notFound', ids: [OTHER_PAGE_FORM, '42'] });
      // phone_number is a question of the webinar form only; with * any form of the page counts.
      await refused(body({ fieldMappings: [{ questionKey: 'phone_number', customFieldId: String(ids.phone) }, { questionKey: 'shoe_size', customFieldId: String(ids.plan) }] }), {
        field: 'fieldMappings.questionKey',
        reason: 'notAQuestion',
        keys: ['phone_number', 'shoe_size'],
      });
      await refused(body({ fieldMappings: [{ questionKey: 'company', customFieldId: '999999' }] }), { field: 'fieldMappings.customFieldId', reason: 'notFound', ids: ['999999'] });
      await refused(body({ tagIds: [String(ids.vip), String(ids.gone), '99999999999'] }), { field: 'tagIds', reason: 'notFound', ids: [String(ids.gone), '99999999999'] });
      await refused(body({ sequenceIds: ['424242'] }), { field: 'sequenceIds', reason: 'notFound', ids: ['424242'] });
      expect(await countOf(ws.id)).toBe(before);
    });

    it("another workspace's page, form, field, tag and sequence are unknown ids (422), and it keeps its own", async () => {
      const before = { mine: await countOf(ws.id), theirs: await countOf(other.id) };
      const cases: [Record<string, unknown>, unknown][] = [
        [{ pageId: theirs.page, formIds: [theirs.form] }, { field: 'pageId', reason: 'notFound', ids: [theirs.page] }],
        [{ formIds: [theirs.form] }, { field: 'formIds', reason: 'notFound', ids: [theirs.form] }],
        [{ fieldMappings: [{ questionKey: 'company', customFieldId: String(theirs.field) }] }, { field: 'fieldMappings.customFieldId', reason: 'notFound', ids: [String(theirs.field)] }],
        [{ tagIds: [String(theirs.tag)] }, { field: 'tagIds', reason: 'notFound', ids: [String(theirs.tag)] }],
        [{ sequenceIds: [String(theirs.sequence)] }, { field: 'sequenceIds', reason: 'notFound', ids: [String(theirs.sequence)] }],
      ];
      for (const [extra, data] of cases) expect((await post(body(extra))).body, JSON.stringify(extra)).toEqual(validationError(data));
      // Their automation holds their form of their page; the same ids in this workspace name nothing, and claim nothing of theirs.
      expect({ mine: await countOf(ws.id), theirs: await countOf(other.id) }).toEqual(before);
      expect(await stored(theirs.automation)).toEqual({ claims: [`${theirs.page}/${theirs.form}`], mappings: [], tags: [], sequences: [] });
    });

    it('validates the body with one schema: required fields, * alone, each form and question once, the reply whole, unknown keys', async () => {
      expect((await post({})).body).toEqual(
        invalidRequestData([
          { message: 'Required', path: ['body', 'name'] },
          { message: 'Required', path: ['body', 'pageId'] },
          { message: 'Required', path: ['body', 'formIds'] },
          { message: 'Required', path: ['body', 'reply'] },
        ]),
      );
      const res = await post(
        body({
          name: ' ',
          pageId: 'page-1',
          formIds: [COUPON, '*', COUPON, 'abc'],
          fieldMappings: [
            { questionKey: 'company', customFieldId: String(ids.plan) },
            { questionKey: 'company', customFieldId: 'x' },
          ],
          reply: { value: 'no type' },
          tagIds: ['vip'],
          isActive: 'yes',
          extra: 1,
        }),
      );
      expect(res.status).toBe(422);
      expect(res.body).toEqual(
        invalidRequestData([
          { message: 'name must not be empty', path: ['body', 'name'] },
          { message: 'must be a digit string of at most 64 digits', path: ['body', 'pageId'] },
          { message: 'must be a form id (a digit string) or *', path: ['body', 'formIds', 3] },
          { message: '* (every form of the page) must be the only form id', path: ['body', 'formIds', 1] },
          { message: `form ${COUPON} is listed twice`, path: ['body', 'formIds', 2] },
          { message: 'must be a digit string', path: ['body', 'fieldMappings', 1, 'customFieldId'] },
          { message: 'question company is mapped twice', path: ['body', 'fieldMappings', 1, 'questionKey'] },
          { message: 'Required', path: ['body', 'reply', 'type'] },
          { message: 'must be a digit string', path: ['body', 'tagIds', 0] },
          { message: 'Invalid input: expected boolean, received string', path: ['body', 'isActive'] },
          { message: 'Unrecognized key: "extra"', path: ['body', 'extra'] },
        ]),
      );
      expect((await post(body({ formIds: [COUPON, '*', COUPON] }))).body).toEqual(
        invalidRequestData([
          { message: '* (every form of the page) must be the only form id', path: ['body', 'formIds', 1] },
          { message: `form ${COUPON} is listed twice`, path: ['body', 'formIds', 2] },
        ]),
      );
      expect(
        (
          await post(
            body({
              formIds: [],
              fieldMappings: [
                { questionKey: 'company', customFieldId: String(ids.plan) },
                { questionKey: 'company', customFieldId: String(ids.phone) },
              ],
            }),
          )
        ).body,
      ).toEqual(
        invalidRequestData([
          { message: 'formIds must hold at least one form id, or *', path: ['body', 'formIds'] },
          { message: 'question company is mapped twice', path: ['body', 'fieldMappings', 1, 'questionKey'] },
        ]),
      );
    });

    it('needs a full token with the automations scope, and the trial', async () => {
      const readOnly = await t.token(ws.id, { kind: 'developer', readOnly: true });
      expect((await post(body(), { token: readOnly })).body).toEqual(forbidden({ reason: 'readOnlyToken' }));
      const expired = await t.workspace({ name: 'Expired', trialEndsAt: '2026-01-01T00:00:00.000Z' });
      expect((await post(body(), { token: expired.developerToken })).body.code).toBe('trialExpired');
    });
  });

  describe('PATCH /v1/net-lead-ads/{id}', () => {
    const make = (name: string, extra: Parameters<ReturnType<typeof fixtures>['leadAd']>[1] = {}) => fixtures(t.db, ws.id).leadAd(name, { pageId: PAGE, formIds: [COUPON], ...extra });
    const drop = (...idsToDrop: number[]) => t.db.deleteFrom('lead_ad_automations').where('id', 'in', idsToDrop).execute();

    it('changes only the given fields, each replaced whole; updatedAt moves; relations and claims rewritten', async () => {
      const id = await make('Before', { fieldMappings: [{ questionKey: 'company', customFieldId: ids.plan }], tagIds: [ids.vip], sequenceIds: [ids.welcome] });
      const renamed = await patch(id, { name: 'After', isActive: false });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toEqual(
        answered(id, 'After', {
          isActive: false,
          updatedAt: isoNow(),
          fieldMappings: [{ questionKey: 'company', customFieldId: String(ids.plan) }],
          tagIds: [String(ids.vip)],
          sequenceIds: [String(ids.welcome)],
        }),
      );
      expect(renamed.body.updatedAt).not.toBe(T0);

      const moved = await patch(id, {
        formIds: [WEBINAR],
        fieldMappings: [{ questionKey: 'phone_number', customFieldId: String(ids.phone) }],
        tagIds: [],
        sequenceIds: [String(ids.nurture)],
        reply: { type: 'AIAgent', value: null, values: [{ value: 'Be brief' }] },
      });
      expect(moved.status).toBe(200);
      expect(moved.body).toEqual(
        answered(id, 'After', {
          isActive: false,
          updatedAt: isoNow(),
          formIds: [WEBINAR],
          reply: { type: 'AIAgent', value: null, values: [{ value: 'Be brief' }] },
          fieldMappings: [{ questionKey: 'phone_number', customFieldId: String(ids.phone) }],
          sequenceIds: [String(ids.nurture)],
        }),
      );
      expect(await stored(id)).toEqual({ claims: [`${PAGE}/${WEBINAR}`], mappings: [`phone_number->${ids.phone}`], tags: [], sequences: [ids.nurture] });
      expect((await get(id)).body).toEqual(moved.body);
      // The coupon form it left is free for another automation.
      const next = await post(body());
      expect(next.status).toBe(201);
      await drop(id, Number(next.body.id));
    });

    it('keeps its own forms without colliding with itself; another automation\'s form, or * over it, is 422 and nothing changes', async () => {
      const mine = await make('Mine');
      const webinar = await make('Webinar', { formIds: [WEBINAR] });
      expect((await patch(mine, { formIds: [COUPON], name: 'Still mine' })).status).toBe(200);
      for (const formIds of [[COUPON, WEBINAR], ['*']]) {
        const res = await patch(mine, { formIds });
        expect(res.body).toEqual(validationError({ field: 'formIds', reason: 'alreadyClaimed', pageId: PAGE, claims: [{ formId: WEBINAR, automationId: String(webinar), automationName: 'Webinar' }] }));
      }
      expect(await stored(mine)).toEqual({ claims: [`${PAGE}/${COUPON}`], mappings: [], tags: [], sequences: [] });
      expect((await get(mine)).body.name).toBe('Still mine');
      await drop(mine, webinar);
    });

    it('the merged automation must be valid: a partial reply, forms of the old page under a new page, keys the new forms do not ask are 422', async () => {
      const id = await make('Merge rules', { fieldMappings: [{ questionKey: 'company', customFieldId: ids.plan }] });
      const before = (await get(id)).body;
      expect((await patch(id, { reply: { value: 'only a value' } })).body).toEqual(invalidRequestData([{ message: 'Required', path: ['body', 'reply', 'type'] }]));
      expect((await patch(id, { pageId: SECOND_PAGE })).body).toEqual(validationError({ field: 'formIds', reason: 'notFound', ids: [COUPON] }));
      expect((await patch(id, { formIds: [WEBINAR] })).body).toEqual(validationError({ field: 'fieldMappings.questionKey', reason: 'notAQuestion', keys: ['company'] }));
      expect((await patch(id, { tagIds: [String(theirs.tag)] })).body).toEqual(validationError({ field: 'tagIds', reason: 'notFound', ids: [String(theirs.tag)] }));
      expect((await patch(id, {})).body).toEqual(invalidRequestData([{ message: 'Provide at least one field to change', path: ['body'] }]));
      expect((await patch(id, { name: null })).body).toEqual(invalidRequestData([{ message: 'Invalid input: expected string, received null', path: ['body', 'name'] }]));
      expect((await get(id)).body).toEqual(before);
      // Both at once is a valid move to the other page.
      const moved = await patch(id, { pageId: SECOND_PAGE, formIds: [OTHER_PAGE_FORM], fieldMappings: [] });
      expect(moved.body).toMatchObject({ pageId: SECOND_PAGE, formIds: [OTHER_PAGE_FORM], fieldMappings: [] });
      expect(await stored(id)).toEqual({ claims: [`${SECOND_PAGE}/${OTHER_PAGE_FORM}`], mappings: [], tags: [], sequences: [] });
      await drop(id);
    });

    it('an automation saved before its page was connected must be given a connected page', async () => {
      const legacy = await fixtures(t.db, ws.id).leadAd('Legacy');
      expect((await patch(legacy, { name: 'Renamed' })).body).toEqual(validationError({ field: 'pageId', reason: 'notFound', ids: ['1001'] }));
      await t.db.updateTable('lead_ad_automations').set({ page_id: null }).where('id', '=', legacy).execute();
      expect((await patch(legacy, { isActive: false })).body).toEqual(invalidRequestData([{ message: 'Required', path: ['body', 'pageId'] }]));
      const fixed = await patch(legacy, { pageId: PAGE, formIds: [ARCHIVED] });
      expect(fixed.body).toMatchObject({ name: 'Legacy', pageId: PAGE, formIds: [ARCHIVED] });
      await drop(legacy);
    });

    it("is 404 for another workspace's automation (and leaves it alone), and for unknown ids", async () => {
      for (const id of [theirs.automation, 424242]) {
        const res = await patch(id, { name: 'Taken over' });
        expect(res.status).toBe(404);
        expect(res.body).toEqual(notFound('Lead-ad automation'));
      }
      const row = await t.db.selectFrom('lead_ad_automations').select(['name', 'updated_at']).where('id', '=', theirs.automation).executeTakeFirstOrThrow();
      expect(row).toEqual({ name: 'Their automation', updated_at: T0 });
    });
  });
});
