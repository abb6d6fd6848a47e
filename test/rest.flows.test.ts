import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlowItem } from '../src/domain/flows/flow.schema.js';
import { contractClient } from './support/contract.js';
import { envelopes, unlimited } from './support/endpoints.js';
import { fixtures, T0 } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { digits, forbidden, invalidRequestData, isoNow, notFound } from './support/rest.js';

const missing = (resource: string, ids: string[]) => ({ ...envelopes.notFound, data: { resource, ids } });
type Issues = { message: string; path: (string | number)[] }[];
const unknownType = "Invalid discriminator value. Expected 'text' | 'image' | 'dynamicImage' | 'quickReplies' | 'addTag' | 'removeTag' | 'setCustomField' | 'subscribeSequence' | 'customEvent'";

/** GET/POST /v1/flows, GET/PATCH/DELETE /v1/flows/{id}. */
describe('flows', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let f: ReturnType<typeof fixtures>;
  /** Rows of `ws` items may name, and rows of `other` they may not. */
  const own = { tag: 0, deletedTag: 0, field: 0, numberField: 0, selectField: 0, boolField: 0, sequence: 0, image: 0 };
  const theirs = { flow: 0, tag: 0, field: 0, sequence: 0, image: 0 };

  const text = (s = 'Hi {{first_name}}'): FlowItem => ({ type: 'text', text: s });
  const call = (method: string, path: string, body?: unknown, token = ws.developerToken) => api.request(method, path, { token, ...(body === undefined ? {} : { body }) });
  const stored = (id: number | string) => t.db.selectFrom('flows').select(['workspace_id', 'name', 'items', 'updated_at']).where('id', '=', Number(id)).executeTakeFirst();
  const flowCount = async () => (await t.db.selectFrom('flows').select('id').where('workspace_id', '=', ws.id).execute()).length;
  const fixture = (id: number, name: string, items: FlowItem[] = [text('Hello {{first_name}}')], extra: Record<string, unknown> = {}) => ({
    id: String(id),
    name,
    items,
    createdAt: T0,
    updatedAt: T0,
    ...extra,
  });

  /** One item of every kind, naming `ws`'s rows. */
  const everyKind = (): FlowItem[] => [
    { type: 'text', text: 'Hi {{first_name}}, your plan is {{custom.Plan}}' },
    { type: 'image', url: 'https://cdn.example.com/sale.png' },
    { type: 'dynamicImage', imageId: String(own.image) },
    { type: 'quickReplies', text: 'Which one?', replies: [{ title: 'Gold', payload: 'GOLD' }, { title: 'Silver' }] },
    { type: 'addTag', tagId: String(own.tag) },
    { type: 'removeTag', tagId: String(own.tag) },
    { type: 'setCustomField', customFieldId: String(own.field), value: 'gold' },
    { type: 'setCustomField', customFieldId: String(own.numberField), value: 42 },
    { type: 'setCustomField', customFieldId: String(own.boolField), value: true },
    { type: 'setCustomField', customFieldId: String(own.field), value: null },
    { type: 'subscribeSequence', sequenceId: String(own.sequence) },
    { type: 'customEvent', name: 'spring_sale_clicked' },
  ];

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    api = await contractClient(t);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
    f = fixtures(t.db, ws.id);
    own.tag = await f.tag('vip');
    own.deletedTag = await f.tag('gone', { deletedAt: T0 });
    own.field = await f.customField('Plan');
    own.numberField = await f.customField('Score', 'number');
    own.boolField = await f.customField('Subscribed', 'boolean');
    own.selectField = await f.customField('Size', 'select');
    await t.db.updateTable('custom_fields').set({ options: JSON.stringify(['S', 'M', 'L']) }).where('id', '=', own.selectField).execute();
    own.sequence = await f.sequence('Nurture');
    own.image = await f.dynamicImage('Badge');
    const g = fixtures(t.db, other.id);
    theirs.flow = await g.flow('Their flow');
    theirs.tag = await g.tag('theirs');
    theirs.field = await g.customField('Theirs');
    theirs.sequence = await g.sequence('Theirs');
    theirs.image = await g.dynamicImage('Theirs');
  });
  afterAll(() => t.close());

  describe('GET /v1/flows', () => {
    it("pages the workspace's flows in creation order, with pageCount", async () => {
      const lister = await t.workspace({ name: 'Lister' });
      const g = fixtures(t.db, lister.id);
      const ids = [await g.flow('Welcome'), await g.flow('Sale', [{ type: 'customEvent', name: 'sale' }]), await g.flow('Winback')];
      const first = await call('GET', '/v1/flows?page=1&perPage=2', undefined, lister.userToken);
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ data: [fixture(ids[0]!, 'Welcome'), fixture(ids[1]!, 'Sale', [{ type: 'customEvent', name: 'sale' }])], pageCount: 2 });
      expect((await call('GET', '/v1/flows?page=2&perPage=2', undefined, lister.developerToken)).body).toEqual({ data: [fixture(ids[2]!, 'Winback')], pageCount: 2 });
      expect((await call('GET', '/v1/flows?page=3&perPage=2', undefined, lister.developerToken)).body).toEqual({ data: [], pageCount: 2 });
      expect((await call('GET', '/v1/flows', undefined, lister.developerToken)).body.data.map((x: { name: string }) => x.name)).toEqual(['Welcome', 'Sale', 'Winback']);
    });

    it("is empty for a workspace without flows (another workspace's never show)", async () => {
      const empty = await t.workspace({ name: 'Empty' });
      expect((await call('GET', '/v1/flows', undefined, empty.developerToken)).body).toEqual({ data: [], pageCount: 0 });
    });

    it('validates page and perPage, and refuses other parameters', async () => {
      expect((await call('GET', '/v1/flows?page=0&perPage=51')).body).toEqual(
        invalidRequestData([
          { message: 'page must be at least 1', path: ['query', 'page'] },
          { message: 'perPage must be at most 50', path: ['query', 'perPage'] },
        ]),
      );
      expect((await call('GET', '/v1/flows?name=x')).body).toEqual(invalidRequestData([{ message: 'Unrecognized key: "name"', path: ['query', 'name'] }]));
    });

    it('needs the automations scope', async () => {
      const contactsOnly = await t.token(ws.id, { kind: 'developer', scopes: ['contacts'] });
      expect((await call('GET', '/v1/flows', undefined, contactsOnly)).body).toEqual(forbidden({ reason: 'missingScope', scope: 'automations' }));
    });
  });

  describe('POST /v1/flows', () => {
    it('is 201 with the flow and its Location; every item kind is stored as sent, the name trimmed', async () => {
      const items = everyKind();
      const res = await call('POST', '/v1/flows', { name: ' Welcome flow ', items });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ id: digits(), name: 'Welcome flow', items, createdAt: isoNow(), updatedAt: isoNow() });
      expect(res.body.updatedAt).toBe(res.body.createdAt);
      expect(res.headers.get('location')).toBe(`/v1/flows/${res.body.id}`);
      expect(await stored(res.body.id)).toEqual({ workspace_id: ws.id, name: 'Welcome flow', items: JSON.stringify(items), updated_at: res.body.updatedAt });
      expect((await call('GET', `/v1/flows/${res.body.id}`)).body).toEqual(res.body);
    });

    it('trims texts and titles; names need not be unique', async () => {
      const a = await call('POST', '/v1/flows', { name: 'Twin', items: [{ type: 'quickReplies', text: ' Pick ', replies: [{ title: ' Yes ', payload: ' y ' }] }] });
      expect(a.body.items).toEqual([{ type: 'quickReplies', text: 'Pick', replies: [{ title: 'Yes', payload: ' y ' }] }]);
      const b = await call('POST', '/v1/flows', { name: 'Twin', items: [text()] });
      expect(b.status).toBe(201);
      expect(b.body.id).not.toBe(a.body.id);
    });

    it('takes a setCustomField value of the field\'s type (its string forms too), and null or "" to clear it', async () => {
      const items: FlowItem[] = [
        { type: 'setCustomField', customFieldId: String(own.numberField), value: '-1.50' },
        { type: 'setCustomField', customFieldId: String(own.boolField), value: 'FALSE' },
        { type: 'setCustomField', customFieldId: String(own.selectField), value: 'm' },
        { type: 'setCustomField', customFieldId: String(own.numberField), value: '' },
        { type: 'setCustomField', customFieldId: String(own.selectField), value: null },
      ];
      const res = await call('POST', '/v1/flows', { name: 'Values', items });
      expect(res.status).toBe(201);
      expect(res.body.items).toEqual(items);
    });

    it('validates the body: name, 1 to 50 items, each of a known type with exactly its fields', async () => {
      const replies = (n: number) => Array.from({ length: n }, (_, i) => ({ title: `R${i}` }));
      const cases: [unknown, Issues][] = [
        [{}, [{ message: 'Required', path: ['body', 'name'] }, { message: 'Required', path: ['body', 'items'] }]],
        [{ name: ' ', items: [text()] }, [{ message: 'name must not be empty', path: ['body', 'name'] }]],
        [{ name: 'x'.repeat(256), items: [text()] }, [{ message: 'name must be at most 255 characters', path: ['body', 'name'] }]],
        [{ name: 'F', items: [] }, [{ message: 'items must hold at least 1 item', path: ['body', 'items'] }]],
        [{ name: 'F', items: Array.from({ length: 51 }, () => text()) }, [{ message: 'items must hold at most 50 items', path: ['body', 'items'] }]],
        [{ name: 'F', items: [text(), { type: 'video', url: 'https://x.example/v.mp4' }] }, [{ message: unknownType, path: ['body', 'items', 1, 'type'] }]],
        [{ name: 'F', items: [{ text: 'no type' }] }, [{ message: unknownType, path: ['body', 'items', 0, 'type'] }]],
        [{ name: 'F', items: [{ type: 'text', text: ' ' }] }, [{ message: 'text must not be empty', path: ['body', 'items', 0, 'text'] }]],
        [{ name: 'F', items: [{ type: 'text', text: 'x'.repeat(2001) }] }, [{ message: 'text must be at most 2000 characters', path: ['body', 'items', 0, 'text'] }]],
        [{ name: 'F', items: [{ type: 'image', url: 'ftp://files.example.com/a.png' }] }, [{ message: 'url must be an http or https URL', path: ['body', 'items', 0, 'url'] }]],
        [{ name: 'F', items: [{ type: 'image', url: 'not a url' }] }, [{ message: 'url must be an http or https URL', path: ['body', 'items', 0, 'url'] }]],
        [
          { name: 'F', items: [{ type: 'quickReplies', text: 'Pick', replies: replies(14) }] },
          [{ message: 'replies must hold at most 13 replies', path: ['body', 'items', 0, 'replies'] }],
        ],
        [{ name: 'F', items: [{ type: 'quickReplies', text: 'Pick', replies: [] }] }, [{ message: 'replies must hold at least 1 reply', path: ['body', 'items', 0, 'replies'] }]],
        [
          { name: 'F', items: [{ type: 'quickReplies', text: 'Pick', replies: [{ title: 'x'.repeat(21) }] }] },
          [{ message: 'title must be at most 20 characters', path: ['body', 'items', 0, 'replies', 0, 'title'] }],
        ],
        [
          { name: 'F', items: [{ type: 'quickReplies', text: 'Pick', replies: [{ title: 'Yes', url: 'https://x.example' }] }] },
          [{ message: 'Unrecognized key: "url"', path: ['body', 'items', 0, 'replies', 0, 'url'] }],
        ],
        [{ name: 'F', items: [{ type: 'text', text: 'Hi', url: 'https://x.example/a.png' }] }, [{ message: 'Unrecognized key: "url"', path: ['body', 'items', 0, 'url'] }]],
        [{ name: 'F', items: [{ type: 'addTag', tagId: 'vip' }] }, [{ message: 'must be a digit string', path: ['body', 'items', 0, 'tagId'] }]],
        [{ name: 'F', items: [{ type: 'addTag', tagId: 7 }] }, [{ message: 'Invalid input: expected string, received number', path: ['body', 'items', 0, 'tagId'] }]],
        [{ name: 'F', items: [{ type: 'setCustomField', customFieldId: String(own.field) }] }, [{ message: 'Required', path: ['body', 'items', 0, 'value'] }]],
        [
          { name: 'F', items: [{ type: 'setCustomField', customFieldId: String(own.field), value: ['a'] }] },
          [{ message: 'value must be a string of at most 2000 characters, a number, a boolean or null', path: ['body', 'items', 0, 'value'] }],
        ],
        [{ name: 'F', items: [{ type: 'customEvent', name: '' }] }, [{ message: 'name must not be empty', path: ['body', 'items', 0, 'name'] }]],
        [{ name: 'F', items: [text()], folderId: '1' }, [{ message: 'Unrecognized key: "folderId"', path: ['body', 'folderId'] }]],
      ];
      const before = await flowCount();
      for (const [body, issues] of cases) {
        const res = await call('POST', '/v1/flows', body);
        expect(res.status, JSON.stringify(body).slice(0, 100)).toBe(422);
        expect(res.body, JSON.stringify(body).slice(0, 100)).toEqual(invalidRequestData(issues));
      }
      expect(await flowCount()).toBe(before);
    });

    it('is 404 naming the resource and the unknown ids, for each kind of record an item names; nothing is stored', async () => {
      const cases: [FlowItem[], string, string[]][] = [
        [
          [
            { type: 'addTag', tagId: String(own.tag) },
            { type: 'addTag', tagId: '424242' },
            { type: 'removeTag', tagId: String(theirs.tag) },
            { type: 'removeTag', tagId: '424242' },
            { type: 'addTag', tagId: String(own.deletedTag) },
          ],
          'Tag',
          ['424242', String(theirs.tag), String(own.deletedTag)],
        ],
        [[{ type: 'setCustomField', customFieldId: String(theirs.field), value: 'x' }, { type: 'setCustomField', customFieldId: String(own.field), value: 'x' }], 'Custom field', [String(theirs.field)]],
        [[{ type: 'subscribeSequence', sequenceId: String(theirs.sequence) }, { type: 'subscribeSequence', sequenceId: '99999999999' }], 'Sequence', [String(theirs.sequence), '99999999999']],
        [[{ type: 'dynamicImage', imageId: String(theirs.image) }], 'Dynamic image', [String(theirs.image)]],
      ];
      const before = await flowCount();
      for (const [items, resource, ids] of cases) {
        const res = await call('POST', '/v1/flows', { name: 'Refused', items: [text(), ...items] });
        expect(res.status, resource).toBe(404);
        expect(res.body).toEqual(missing(resource, ids));
      }
      // Kinds are checked in order: tags first.
      const both = await call('POST', '/v1/flows', { name: 'Refused', items: [{ type: 'subscribeSequence', sequenceId: '424242' }, { type: 'addTag', tagId: '424243' }] });
      expect(both.body).toEqual(missing('Tag', ['424243']));
      expect(await flowCount()).toBe(before);
    });

    it("is 422 at each setCustomField value that is not of its field's type", async () => {
      const res = await call('POST', '/v1/flows', {
        name: 'Bad values',
        items: [
          text(),
          { type: 'setCustomField', customFieldId: String(own.numberField), value: 'lots' },
          { type: 'setCustomField', customFieldId: String(own.selectField), value: 'XL' },
          { type: 'setCustomField', customFieldId: String(own.field), value: 3 },
          { type: 'setCustomField', customFieldId: String(own.boolField), value: 'maybe' },
        ],
      });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(
        invalidRequestData([
          { message: expect.stringMatching(/^value must be a number/) as never, path: ['body', 'items', 1, 'value'] },
          { message: 'value must be one of the options: "S", "M", "L"', path: ['body', 'items', 2, 'value'] },
          { message: 'value must be a string', path: ['body', 'items', 3, 'value'] },
          { message: 'value must be true or false (or the string "true" or "false")', path: ['body', 'items', 4, 'value'] },
        ]),
      );
    });

    it('needs a full token with the automations scope, and a live trial', async () => {
      const body = { name: 'No', items: [text()] };
      const readOnly = await t.token(ws.id, { kind: 'developer', readOnly: true });
      expect((await call('POST', '/v1/flows', body, readOnly)).body).toEqual(forbidden({ reason: 'readOnlyToken' }));
      const contactsOnly = await t.token(ws.id, { kind: 'developer', scopes: ['contacts'] });
      expect((await call('POST', '/v1/flows', body, contactsOnly)).body).toEqual(forbidden({ reason: 'missingScope', scope: 'automations' }));
      const expired = await t.workspace({ name: 'Expired', trialEndsAt: '2026-01-01T00:00:00.000Z' });
      expect((await call('POST', '/v1/flows', body, expired.developerToken)).body.code).toBe('trialExpired');
      expect(await t.db.selectFrom('flows').select('id').where('name', '=', 'No').execute()).toEqual([]);
    });
  });

  describe('GET /v1/flows/{id}', () => {
    it('answers the flow', async () => {
      const items: FlowItem[] = [text(), { type: 'customEvent', name: 'opened' }];
      const id = await f.flow('Read me', items);
      const res = await call('GET', `/v1/flows/${id}`, undefined, ws.userToken);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(fixture(id, 'Read me', items));
    });

    it("is 404 for an unknown id and another workspace's flow; 422 for a non-digit id", async () => {
      for (const id of ['424242', String(theirs.flow), '99999999999']) {
        const res = await call('GET', `/v1/flows/${id}`);
        expect(res.status, id).toBe(404);
        expect(res.body).toEqual(notFound('Flow'));
      }
      expect((await call('GET', '/v1/flows/welcome')).body).toEqual(invalidRequestData([{ message: 'must be a digit string', path: ['params', 'id'] }]));
    });
  });

  describe('PATCH /v1/flows/{id}', () => {
    it('changes only the fields sent (items replace the list), and moves updatedAt', async () => {
      const id = await f.flow('Drip');
      const renamed = await call('PATCH', `/v1/flows/${id}`, { name: ' Slow drip ' });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toEqual(fixture(id, 'Slow drip', undefined, { updatedAt: isoNow() }));
      expect(renamed.body.updatedAt > T0).toBe(true);
      const items = everyKind();
      const replaced = await call('PATCH', `/v1/flows/${id}`, { items });
      expect(replaced.body).toEqual(fixture(id, 'Slow drip', items, { updatedAt: isoNow() }));
      const both = await call('PATCH', `/v1/flows/${id}`, { name: 'Fast drip', items: [text('Bye')] });
      expect(both.body).toEqual(fixture(id, 'Fast drip', [text('Bye')], { updatedAt: isoNow() }));
      expect((await call('GET', `/v1/flows/${id}`)).body).toEqual(both.body);
    });

    it('needs at least one field, each valid, and the records items name; a refused change changes nothing', async () => {
      const id = await f.flow('Untouched');
      const cases: [unknown, number, unknown][] = [
        [{}, 422, invalidRequestData([{ message: 'Provide at least one of name or items', path: ['body'] }])],
        [{ name: '' }, 422, invalidRequestData([{ message: 'name must not be empty', path: ['body', 'name'] }])],
        [{ items: [] }, 422, invalidRequestData([{ message: 'items must hold at least 1 item', path: ['body', 'items'] }])],
        [{ items: null }, 422, invalidRequestData([{ message: 'Invalid input: expected array, received null', path: ['body', 'items'] }])],
        [{ name: 'x', colour: 'red' }, 422, invalidRequestData([{ message: 'Unrecognized key: "colour"', path: ['body', 'colour'] }])],
        [{ name: 'x', items: [{ type: 'addTag', tagId: String(theirs.tag) }] }, 404, missing('Tag', [String(theirs.tag)])],
        [
          { items: [{ type: 'setCustomField', customFieldId: String(own.numberField), value: true }] },
          422,
          invalidRequestData([{ message: expect.stringMatching(/^value must be a number/) as never, path: ['body', 'items', 0, 'value'] }]),
        ],
      ];
      for (const [body, status, answer] of cases) {
        const res = await call('PATCH', `/v1/flows/${id}`, body);
        expect(res.status, JSON.stringify(body)).toBe(status);
        expect(res.body).toEqual(answer);
      }
      expect(await stored(id)).toEqual({ workspace_id: ws.id, name: 'Untouched', items: JSON.stringify([text('Hello {{first_name}}')]), updated_at: T0 });
    });

    it("is 404 Flow for an unknown id and another workspace's flow (before its items are checked), which stays as it was", async () => {
      for (const id of ['424242', String(theirs.flow)]) {
        const res = await call('PATCH', `/v1/flows/${id}`, { name: 'Hijacked', items: [{ type: 'addTag', tagId: '424242' }] });
        expect(res.status).toBe(404);
        expect(res.body).toEqual(notFound('Flow'));
      }
      expect((await stored(theirs.flow))?.name).toBe('Their flow');
    });
  });

  describe('DELETE /v1/flows/{id}', () => {
    it('is 204 with an empty body; sequence steps that sent it stay, with no flow', async () => {
      const doomed = await f.flow('Doomed');
      const kept = await f.flow('Kept');
      const step = async (flowId: number, position: number) => {
        const id = await f.sequenceStep(own.sequence, position);
        await t.db.updateTable('sequence_steps').set({ flow_id: flowId }).where('id', '=', id).execute();
        return id;
      };
      const a = await step(doomed, 0);
      const b = await step(kept, 1);
      const res = await call('DELETE', `/v1/flows/${doomed}`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(await stored(doomed)).toBeUndefined();
      const steps = await t.db.selectFrom('sequence_steps').select(['id', 'flow_id']).where('id', 'in', [a, b]).orderBy('id').execute();
      expect(steps).toEqual([
        { id: a, flow_id: null },
        { id: b, flow_id: kept },
      ]);
      expect((await call('GET', `/v1/flows/${doomed}`)).body).toEqual(notFound('Flow'));
      expect((await call('DELETE', `/v1/flows/${doomed}`)).body).toEqual(notFound('Flow'));
    });

    it("is 404 for another workspace's flow, which stays; needs the delete right", async () => {
      const res = await call('DELETE', `/v1/flows/${theirs.flow}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound('Flow'));
      expect((await stored(theirs.flow))?.name).toBe('Their flow');
      const id = await f.flow('Guarded');
      const readOnly = await t.token(ws.id, { kind: 'developer', readOnly: true });
      expect((await call('DELETE', `/v1/flows/${id}`, undefined, readOnly)).body).toEqual(forbidden({ reason: 'readOnlyToken' }));
      expect(await stored(id)).toBeDefined();
    });
  });
});
