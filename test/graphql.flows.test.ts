import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlowItem } from '../src/domain/flows/flow.schema.js';
import { CreateFlowDocument, DeleteFlowDocument, FlowDocument, FlowsDocument, UpdateFlowDocument, type FlowItemInput } from './graphql/generated/graphql.js';
import { envelopes, unlimited } from './support/endpoints.js';
import { fixtures, T0 } from './support/fixtures.js';
import { documentError, fieldError, gql, invalidInput } from './support/graphql.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { isoNow, notFound } from './support/rest.js';

const missing = (resource: string, ids: string[]) => ({ ...envelopes.notFound, data: { resource, ids } });

/** Every field of the flat FlowItem, null but for those of the item's kind. */
const flat = (item: FlowItem) => ({
  text: null,
  url: null,
  imageId: null,
  replies: null,
  tagId: null,
  customFieldId: null,
  value: null,
  sequenceId: null,
  name: null,
  ...(item.type === 'quickReplies' ? { ...item, replies: item.replies.map((r) => ({ payload: null, ...r })) } : item),
});

/** Flows as GraphQL queries and mutations: the services, schemas and errors of REST. */
describe('GraphQL flows', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  const own = { tag: 0, field: 0, numberField: 0, sequence: 0, image: 0 };
  const theirs = { flow: 0, tag: 0, image: 0 };

  const as = (w: TestWorkspace) => ({ token: w.developerToken });
  const rest = async (method: string, path: string, body?: unknown) => (await t.request(method, path, { token: ws.developerToken, ...(body === undefined ? {} : { body }) })).body;

  /** One item of every kind, as REST takes and answers them. */
  const everyKind = (): FlowItem[] => [
    { type: 'text', text: 'Hi {{first_name}}' },
    { type: 'image', url: 'https://cdn.example.com/sale.png' },
    { type: 'dynamicImage', imageId: String(own.image) },
    { type: 'quickReplies', text: 'Which one?', replies: [{ title: 'Gold', payload: 'GOLD' }, { title: 'Silver' }] },
    { type: 'addTag', tagId: String(own.tag) },
    { type: 'removeTag', tagId: String(own.tag) },
    { type: 'setCustomField', customFieldId: String(own.field), value: 'gold' },
    { type: 'setCustomField', customFieldId: String(own.numberField), value: '42' },
    { type: 'setCustomField', customFieldId: String(own.field), value: null },
    { type: 'subscribeSequence', sequenceId: String(own.sequence) },
    { type: 'customEvent', name: 'spring_sale_clicked' },
  ];

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
    const f = fixtures(t.db, ws.id);
    own.tag = await f.tag('vip');
    own.field = await f.customField('Plan');
    own.numberField = await f.customField('Score', 'number');
    own.sequence = await f.sequence('Nurture');
    own.image = await f.dynamicImage('Badge');
    const g = fixtures(t.db, other.id);
    theirs.flow = await g.flow('Their flow');
    theirs.tag = await g.tag('theirs');
    theirs.image = await g.dynamicImage('Theirs');
  });
  afterAll(() => t.close());

  it('creates what REST reads back (every kind of item, flat), and lists, reads and updates as REST does', async () => {
    const items = everyKind();
    // GraphQL clients send the other kinds' fields as null, and may name records by global id.
    const input: FlowItemInput[] = items.map((i) => ({ ...flat(i), ...(i.type === 'addTag' ? { tagId: encodeGlobalID('Tag', i.tagId) } : {}) }) as FlowItemInput);
    const created = await gql(t, CreateFlowDocument, { input: { name: ' Welcome ', items: input } }, as(ws));
    expect(created.body.errors).toBeUndefined();
    const flow = created.body.data!.createFlow;
    expect(flow).toEqual({ id: expect.stringMatching(/^\d+$/), name: 'Welcome', items: items.map(flat), createdAt: isoNow(), updatedAt: flow.createdAt });
    expect(await rest('GET', `/v1/flows/${flow.id}`)).toEqual({ ...flow, items });

    const listed = await gql(t, FlowsDocument, { perPage: 50 }, as(ws));
    expect(listed.body).toEqual({ data: { flows: { pageCount: 1, data: [flow] } } });
    expect((await gql(t, FlowDocument, { id: encodeGlobalID('Flow', flow.id) }, as(ws))).body).toEqual({ data: { flow } });

    const renamed = await gql(t, UpdateFlowDocument, { id: flow.id, input: { name: 'Welcome back', items: null } }, as(ws));
    expect(renamed.body).toEqual({ data: { updateFlow: { ...flow, name: 'Welcome back', updatedAt: isoNow() } } });
    const replaced = await gql(t, UpdateFlowDocument, { id: flow.id, input: { items: [{ type: 'customEvent', name: 'bye' }] } }, as(ws));
    expect(replaced.body.data!.updateFlow.items).toEqual([flat({ type: 'customEvent', name: 'bye' })]);
    expect((await rest('GET', `/v1/flows/${flow.id}`)).items).toEqual([{ type: 'customEvent', name: 'bye' }]);

    expect((await gql(t, DeleteFlowDocument, { id: flow.id }, as(ws))).body).toEqual({ data: { deleteFlow: { success: true } } });
    expect(await rest('GET', `/v1/flows/${flow.id}`)).toEqual(notFound('Flow'));
  });

  it('refuses what REST refuses, at the argument paths', async () => {
    const text = { type: 'text', text: 'Hi' } as const;
    const cases: [unknown, { message: string; path: (string | number)[] }[], string][] = [
      [{ name: 'F', items: [] }, [{ message: 'items must hold at least 1 item', path: ['input', 'items'] }], 'items must hold at least 1 item'],
      [{ name: 'F', items: Array.from({ length: 51 }, () => text) }, [{ message: 'items must hold at most 50 items', path: ['input', 'items'] }], 'items must hold at most 50 items'],
      [
        { name: 'F', items: [{ type: 'image', url: 'ftp://x.example/a.png' }] },
        [{ message: 'url must be an http or https URL', path: ['input', 'items', 0, 'url'] }],
        'url must be an http or https URL',
      ],
      [
        { name: 'F', items: [{ type: 'quickReplies', text: 'Pick', replies: Array.from({ length: 14 }, (_, i) => ({ title: `R${i}` })) }] },
        [{ message: 'replies must hold at most 13 replies', path: ['input', 'items', 0, 'replies'] }],
        'replies must hold at most 13 replies',
      ],
      // Only the fields of the item's kind: a text item with a url is refused, as on REST.
      [{ name: 'F', items: [{ type: 'text', text: 'Hi', url: 'https://x.example/a.png' }] }, [{ message: 'Unrecognized key: "url"', path: ['input', 'items', 0, 'url'] }], 'input.items[0].url: Unrecognized key: "url"'],
      [
        { name: 'F', items: [{ type: 'text' }] },
        [{ message: 'Invalid input: expected string, received undefined', path: ['input', 'items', 0, 'text'] }],
        'input.items[0].text: Invalid input: expected string, received undefined',
      ],
      [
        { name: 'F', items: [{ type: 'addTag', tagId: encodeGlobalID('Sequence', String(own.sequence)) }] },
        [{ message: 'must be a digit string', path: ['input', 'items', 0, 'tagId'] }],
        'input.items[0].tagId: must be a digit string',
      ],
    ];
    for (const [input, issues, message] of cases) {
      const res = await gql(t, CreateFlowDocument, { input: input as never }, as(ws));
      expect(res.body, JSON.stringify(input).slice(0, 80)).toEqual({ data: null, errors: [invalidInput(['createFlow'], issues, message)] });
    }
    // An unknown type is not a FlowItemType: GraphQL refuses the variable before the field runs.
    const unknown = await gql(t, CreateFlowDocument, { input: { name: 'F', items: [{ type: 'video' as never }] } }, as(ws));
    const refused = 'Variable "$input" got invalid value "video" at "input.items[0].type"; Value "video" does not exist in "FlowItemType" enum.';
    expect(unknown.body).toEqual({ errors: [documentError(refused, { locations: expect.any(Array) }, ['variables', 'input'])] });
    expect(await t.db.selectFrom('flows').select('id').where('workspace_id', '=', ws.id).where('name', '=', 'F').execute()).toEqual([]);
  });

  it('is 404 naming the records items name that are not the workspace\'s, and 422 at a value not of its field\'s type', async () => {
    const tags = await gql(
      t,
      CreateFlowDocument,
      { input: { name: 'F', items: [{ type: 'addTag', tagId: String(theirs.tag) }, { type: 'removeTag', tagId: '424242' }] } },
      as(ws),
    );
    expect(tags.body).toEqual({ data: null, errors: [fieldError(['createFlow'], missing('Tag', [String(theirs.tag), '424242']), `Tag not found: ${theirs.tag}, 424242`)] });
    const images = await gql(t, CreateFlowDocument, { input: { name: 'F', items: [{ type: 'dynamicImage', imageId: encodeGlobalID('DynamicImage', String(theirs.image)) }] } }, as(ws));
    expect(images.body).toEqual({ data: null, errors: [fieldError(['createFlow'], missing('Dynamic image', [String(theirs.image)]), `Dynamic image not found: ${theirs.image}`)] });

    const id = String(await fixtures(t.db, ws.id).flow('Kept'));
    const value = await gql(
      t,
      UpdateFlowDocument,
      { id, input: { items: [{ type: 'text', text: 'Hi' }, { type: 'setCustomField', customFieldId: String(own.numberField), value: 'lots' }] } },
      as(ws),
    );
    expect(value.body).toEqual({
      data: null,
      errors: [invalidInput(['updateFlow'], [{ message: expect.stringMatching(/^value must be a number/) as never, path: ['input', 'items', 1, 'value'] }], expect.stringMatching(/^value must be a number/) as never)],
    });
    expect(await rest('GET', `/v1/flows/${id}`)).toMatchObject({ name: 'Kept', updatedAt: T0 });
  });

  it("never reads or changes another workspace's flow", async () => {
    const id = String(theirs.flow);
    expect((await gql(t, FlowDocument, { id }, as(ws))).body).toEqual({ data: null, errors: [fieldError(['flow'], notFound('Flow'), 'Flow not found')] });
    expect((await gql(t, UpdateFlowDocument, { id, input: { name: 'Mine' } }, as(ws))).body).toEqual({
      data: null,
      errors: [fieldError(['updateFlow'], notFound('Flow'), 'Flow not found')],
    });
    expect((await gql(t, DeleteFlowDocument, { id }, as(ws))).body).toEqual({ data: null, errors: [fieldError(['deleteFlow'], notFound('Flow'), 'Flow not found')] });
    const node = await t.graphql('query($id: ID!) { node(id: $id) { id } }', { id: encodeGlobalID('Flow', id) }, as(ws));
    expect(node.body).toEqual({ data: { node: null } });
    expect((await gql(t, FlowsDocument, {}, as(other))).body.data!.flows.data.map((f) => f.name)).toEqual(['Their flow']);
    expect((await t.db.selectFrom('flows').select('name').where('id', '=', theirs.flow).executeTakeFirst())?.name).toBe('Their flow');
  });
});
