import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CommentAutomationDocument,
  ContactByIdentifierDocument,
  DynamicImagesDocument,
  ErrorLogsDocument,
  TagsDocument,
  WorkspaceDocument,
} from './graphql/generated/graphql.js';
import { unlimited } from './support/endpoints.js';
import { fixtures, T0 } from './support/fixtures.js';
import { gql } from './support/graphql.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

/**
 * REST and GraphQL read the same records through the same services: the same fields hold equal
 * values. The two differences are GraphQL's and are undone here, nothing else: a contract enum
 * value that is not a GraphQL name is spelt with a leading underscore (`_6h` for `6h`), and an
 * optional list a REST object leaves out is null (`values`).
 */
const asContract = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(asContract);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k, v]) => !(k === 'values' && v === null))
        .map(([k, v]) => [k, k === 'showCommentsAfter' && typeof v === 'string' ? v.replace(/^_/, '') : asContract(v)]),
    );
  }
  return value;
};

describe('REST and GraphQL return equal values for the same records', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let token: { token: string };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    ws = await t.workspace({ name: 'Parity' });
    token = { token: ws.developerToken };
    const f = fixtures(t.db, ws.id);
    for (const name of ['Zeta', 'alpha', 'Beta']) await f.tag(name);
    await f.tag('old', { deletedAt: T0 });

    const contact = await f.contact({ email: 'grace@example.com', phone: '+15551234567', firstName: 'Grace' });
    ids.contact = String(contact);
    const plan = await f.customField('plan', 'shortText', 'Subscription plan');
    await f.customField('birthday', 'date', 'Day of birth');
    await f.fieldValue(contact, plan, 'gold');
    await f.subscribe(contact, await f.sequence('Welcome'));
    await f.subscribe(contact, await f.sequence('Upsell'));

    const automation = await f.commentAutomation('net', 'Page FAQ', { folderId: '7', type: 'chat' });
    await t.db
      .updateTable('comment_automations')
      .set({
        hide_comments: JSON.stringify({ all: false, hasPhoneNumber: true, hasImage: false, hasVideo: false, hasLink: true, hasKeywords: true, keywords: ['scam'], showCommentsAfter: '6h' }),
        private_reply: JSON.stringify({ type: 'text', value: 'See DM', values: [{ value: 'a' }, { value: 'b' }] }),
        replies_count: 12,
        failed_count: -3,
      })
      .where('id', '=', automation)
      .execute();
    ids.automation = String(automation);

    for (let i = 0; i < 5; i++) {
      await t.db
        .insertInto('dynamic_images')
        .values({
          workspace_id: ws.id,
          name: i % 2 ? `Promo banner ${i}` : `Card ${i}`,
          custom_field_id: i === 1 ? plan : null,
          background_url: `https://cdn.example.com/bg${i}.png`,
          image_url: `https://cdn.example.com/out${i}.png`,
          enabled: i % 2,
          data: JSON.stringify({
            width: 1080,
            height: 607.5,
            elements: [{ id: `el${i}`, x: 10.5, y: 20, width: 300, height: 300, type: 'image', imageType: 'url', priority: i === 3, url: 'https://cdn.example.com/p.png', customFieldId: '', imageStyle: 'square' }],
          }),
          created_at: new Date(Date.parse(T0) + i * 60_000).toISOString(),
          updated_at: T0,
        })
        .execute();
    }
    for (let i = 0; i < 7; i++) {
      await f.errorLog(i % 2 ? `Request timed out after ${i}s` : `Invalid recipient ${i}`, {
        action: i % 3 ? 'sendMessage' : 'syncContact',
        contactId: i % 2 ? contact : null,
        httpCode: i % 2 ? '504' : '400',
        at: new Date(Date.parse(T0) + i * 1000).toISOString(),
      });
    }
  });
  afterAll(() => t.close());

  it('GET /v1/tags and tags', async () => {
    const rest = await t.request('GET', '/v1/tags', token);
    const graphql = await gql(t, TagsDocument, {}, token);
    expect(rest.body.data).toHaveLength(3);
    expect(graphql.body).toEqual({ data: { tags: rest.body.data } });
  });

  it('GET /v1/contacts/{identifier}/custom-fields and /sequences, and contact(identifier)', async () => {
    for (const identifier of [ids.contact, 'grace@example.com', 'GRACE@example.com', '+15551234567', `id:${ids.contact}`]) {
      const fields = await t.request('GET', `/v1/contacts/${encodeURIComponent(identifier)}/custom-fields`, token);
      const sequences = await t.request('GET', `/v1/contacts/${encodeURIComponent(identifier)}/sequences`, token);
      const graphql = await gql(t, ContactByIdentifierDocument, { identifier }, token);
      expect(fields.body.data).toHaveLength(2);
      expect(sequences.body.data).toHaveLength(2);
      expect(graphql.body).toEqual({
        data: { contact: { id: ids.contact, email: 'grace@example.com', customFields: fields.body.data, sequences: sequences.body.data } },
      });
    }
  });

  it('GET /v1/net-comments/{id} and commentAutomation(id, channel: net)', async () => {
    const rest = await t.request('GET', `/v1/net-comments/${ids.automation}`, token);
    const graphql = await gql(t, CommentAutomationDocument, { id: ids.automation, channel: 'net' }, token);
    expect(rest.status).toBe(200);
    expect(graphql.body.data!.commentAutomation.hideComments.showCommentsAfter).toBe('_6h');
    expect(asContract(graphql.body)).toEqual({ data: { commentAutomation: rest.body } });
  });

  it('GET /v1/dynamic-images and dynamicImages, page by page and filtered by name', async () => {
    for (const [query, variables] of [
      ['', {}],
      ['?page=2&perPage=2', { page: 2, perPage: 2 }],
      ['?name=PROMO&perPage=1', { name: 'PROMO', perPage: 1 }],
      ['?page=9&perPage=50', { page: 9, perPage: 50 }],
    ] as const) {
      const rest = await t.request('GET', `/v1/dynamic-images${query}`, token);
      const graphql = await gql(t, DynamicImagesDocument, variables, token);
      expect(rest.status, query).toBe(200);
      expect(graphql.body, query).toEqual({ data: { dynamicImages: rest.body } });
    }
  });

  it('GET /v1/error-logs and errorLogs, page by page and filtered by keyword', async () => {
    for (const [query, variables] of [
      ['', {}],
      ['?page=2&perPage=3', { page: 2, perPage: 3 }],
      ['?keyword=TIMED%20OUT', { keyword: 'TIMED OUT' }],
      ['?keyword=sync&perPage=1', { keyword: 'sync', perPage: 1 }],
    ] as const) {
      const rest = await t.request('GET', `/v1/error-logs${query}`, token);
      const graphql = await gql(t, ErrorLogsDocument, variables, token);
      expect(rest.status, query).toBe(200);
      expect(rest.body.data.length, query).toBeGreaterThan(0);
      expect(graphql.body, query).toEqual({ data: { errorLogs: rest.body } });
    }
  });

  it('GET /v1/workspaces and workspace', async () => {
    const rest = await t.request('GET', '/v1/workspaces', token);
    const graphql = await gql(t, WorkspaceDocument, {}, token);
    expect(rest.body.name).toBe('Parity');
    expect(graphql.body).toEqual({ data: { workspace: rest.body } });
  });
});
