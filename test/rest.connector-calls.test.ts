import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { testEngine } from './support/engine.js';
import { unlimited } from './support/endpoints.js';
import { fixtures } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { invalidRequestData, notFound, validationError } from './support/rest.js';

/**
 * The calls of the automation tool's community connector that behave as the real product does:
 * its channel words on POST /v1/contacts (`omnichannel` by default), the older
 * PUT /v1/contacts/{identifier}/custom-fields with `{fields: [{customFieldId, value}]}`, and every
 * contract field on every dynamic-image element. Sent exactly as the connector sends them.
 */
describe(`the automation connector's calls (${testEngine})`, () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  let inboxes: { photo: number; net: number; chat: number };

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    api = await contractClient(t);
    ws = await t.workspace({ name: 'Connector' });
    const f = fixtures(t.db, ws.id);
    inboxes = { photo: await f.inbox('Photo DMs', 'photo'), net: await f.inbox('Page', 'net'), chat: await f.inbox('Site chat', 'chat') };
  });
  afterAll(() => t.close());

  const createContact = (body: Record<string, unknown>) => api.request('POST', '/v1/contacts', { token: ws.developerToken, body });
  const joined = (res: { body: { contactInboxes: { inboxId: string; channel: string }[] } }) => res.body.contactInboxes.map((c) => [c.inboxId, c.channel]);

  describe('POST /v1/contacts channel words', () => {
    it('omnichannel (the connector\'s default) joins an inbox of any channel, on the inbox\'s channel', async () => {
      for (const [channel, inbox] of Object.entries(inboxes)) {
        const res = await createContact({ firstName: 'Omni', email: `omni-${channel}@example.com`, channel: 'omnichannel', inboxId: String(inbox) });
        expect(res.status).toBe(200);
        expect(joined(res)).toEqual([[String(inbox), channel]]);
      }
    });

    it('omnichannel without an inbox is a contact on no inbox', async () => {
      const res = await createContact({ email: 'nowhere@example.com', channel: 'omnichannel' });
      expect([res.status, res.body.contactInboxes]).toEqual([200, []]);
    });

    it("the connector's words for this service's channels: instagram = photo, facebook = net, messenger = chat", async () => {
      const words = { instagram: 'photo', facebook: 'net', messenger: 'chat' } as const;
      for (const [word, channel] of Object.entries(words)) {
        const res = await createContact({ email: `${word}@example.com`, channel: word, inboxId: String(inboxes[channel]) });
        expect(res.status).toBe(200);
        expect(joined(res)).toEqual([[String(inboxes[channel]), channel]]);
      }
      const mismatch = await createContact({ email: 'mismatch@example.com', channel: 'instagram', inboxId: String(inboxes.chat) });
      expect(mismatch.body).toEqual(validationError({ field: 'channel', reason: 'inboxChannelMismatch' }));
    });

    it('channels this service does not have are 422, naming the ones it has', async () => {
      const message = "channel must be one of photo, net, chat, or instagram (photo), facebook (net), messenger (chat), omnichannel (the inbox's own)";
      for (const channel of ['smtp', 'telegram', 'tiktok', 'webchat', 'whatsapp', 'zalo']) {
        const res = await createContact({ email: `${channel}@example.com`, channel, inboxId: String(inboxes.chat) });
        expect(res.body).toEqual(invalidRequestData([{ message, path: ['body', 'channel'] }]));
      }
      const made = await t.db.selectFrom('contacts').select('email').where('workspace_id', '=', ws.id).where('email', 'like', '%@example.com').execute();
      expect(made.map((c) => c.email)).not.toContain('zalo@example.com');
    });
  });

  describe('PUT /v1/contacts/{identifier}/custom-fields', () => {
    let contact: number;
    let fields: { company: number; orders: number; birthday: number };
    beforeAll(async () => {
      const f = fixtures(t.db, ws.id);
      contact = await f.contact({ email: 'fields@example.com' });
      fields = { company: await f.customField('Company'), orders: await f.customField('Orders', 'number'), birthday: await f.customField('Birthday', 'date') };
    });
    const values = async () => {
      const res = await api.request('GET', `/v1/contacts/${contact}/custom-fields`, { token: ws.developerToken });
      return Object.fromEntries(res.body.data.map((v: { name: string; value: string }) => [v.name, v.value]));
    };
    const put = (body: unknown) => api.request('PUT', `/v1/contacts/${contact}/custom-fields`, { token: ws.developerToken, body });

    it('sets every listed value in one call and answers {success: true}', async () => {
      const res = await put({ fields: [{ customFieldId: String(fields.company), value: 'Northwind' }, { customFieldId: fields.orders, value: 3.0 }] });
      expect([res.status, res.body]).toEqual([200, { success: true }]);
      expect(await values()).toEqual({ Company: 'Northwind', Orders: '3', Birthday: '' });
    });

    it('all or nothing: one value that does not fit its field is 422 at its path, and nothing changes', async () => {
      const res = await put({
        fields: [
          { customFieldId: String(fields.company), value: 'Changed' },
          { customFieldId: String(fields.orders), value: 'many' },
          { customFieldId: String(fields.birthday), value: 'someday' },
        ],
      });
      expect(res.status).toBe(422);
      expect(res.body.data.issues.map((i: { path: unknown[] }) => i.path)).toEqual([
        ['body', 'fields', 1, 'value'],
        ['body', 'fields', 2, 'value'],
      ]);
      expect(await values()).toEqual({ Company: 'Northwind', Orders: '3', Birthday: '' });
    });

    it('a field of another workspace, or none, is 404 and changes nothing; null clears', async () => {
      const other = await t.workspace({ name: 'Other' });
      const theirs = await fixtures(t.db, other.id).customField('Theirs');
      const res = await put({ fields: [{ customFieldId: String(fields.company), value: 'Changed' }, { customFieldId: String(theirs), value: 'x' }] });
      expect(res.body).toEqual({ ...notFound('Custom field'), data: { resource: 'Custom field', ids: [String(theirs)], names: [] } });
      expect(await values()).toEqual({ Company: 'Northwind', Orders: '3', Birthday: '' });
      expect((await put({ fields: [{ customFieldId: String(fields.company), value: null }] })).body).toEqual({ success: true });
      expect((await values()).Company).toBe('');
    });

    it('GraphQL setContactCustomFields(fields:) does the same and answers the values', async () => {
      const res = await t.graphql(
        'mutation ($id: String!, $fields: [ContactCustomFieldValueInput!]) { setContactCustomFields(identifier: $id, fields: $fields) { name value } }',
        { id: String(contact), fields: [{ customFieldId: String(fields.birthday), value: '2026-03-01' }] },
        { token: ws.developerToken },
      );
      expect(res.body.data.setContactCustomFields).toEqual(expect.arrayContaining([{ name: 'Birthday', value: '2026-03-01' }]));
      const both = await t.graphql(
        'mutation ($id: String!) { setContactCustomFields(identifier: $id, fields: [{ customFieldId: "1", value: "x" }], operations: [{ op: clear, name: "Company" }]) { name } }',
        { id: String(contact) },
        { token: ws.developerToken },
      );
      expect(both.body.errors[0].message).toBe('fields: Send exactly one of operations or fields');
    });
  });

  it('every dynamic-image element carries every contract field, REST and GraphQL', async () => {
    const contractFields = ['id', 'x', 'y', 'width', 'height', 'type', 'imageType', 'priority', 'url', 'customFieldId', 'imageStyle'];
    const body = {
      name: 'Card',
      data: {
        width: 400,
        height: 400,
        elements: [
          { id: 'pic', x: 0, y: 0, width: 100, height: 100, type: 'image', imageType: 'url', url: 'https://cdn.example.com/p.png' },
          { id: 'txt', x: 0, y: 200, width: 300, height: 40, type: 'text', text: 'Hello', fontSize: 20, color: '#000000', align: 'left' },
        ],
      },
    };
    const created = await api.request('POST', '/v1/dynamic-images', { token: ws.developerToken, body });
    const listed = await api.request('GET', '/v1/dynamic-images', { token: ws.developerToken });
    for (const image of [created.body, ...listed.body.data]) {
      for (const element of image.data.elements) expect(Object.keys(element)).toEqual(expect.arrayContaining(contractFields));
    }
    expect(created.body.data.elements[1]).toEqual(expect.objectContaining({ type: 'text', imageType: null, url: null, imageStyle: null, customFieldId: '' }));
    const gql = await t.graphql(
      `query ($id: ID!) { dynamicImage(id: $id) { data { elements { ${contractFields.join(' ')} } } } }`,
      { id: created.body.id },
      { token: ws.developerToken },
    );
    expect(gql.body.data.dynamicImage.data.elements).toEqual(created.body.data.elements.map((e: Record<string, unknown>) => Object.fromEntries(contractFields.map((k) => [k, e[k]]))));
  });
});
