import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommentAutomationsDocument, ContactEdgeCursorsDocument, ContactIdsDocument, ConversationsDocument } from './graphql/generated/graphql.js';
import { unlimited } from './support/endpoints.js';
import { fixtures, T0 } from './support/fixtures.js';
import { gql, invalidInput } from './support/graphql.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

/**
 * Relay connections page newest first with opaque cursors: `after` continues below the
 * previous page, a cursor of another list is refused, `keyword` filters contacts.
 */
describe('GraphQL connections', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let token: { token: string };
  const contacts: string[] = [];
  beforeAll(async () => {
    t = await createTestApp(unlimited);
    ws = await t.workspace({ name: 'Pages' });
    token = { token: ws.developerToken };
    const f = fixtures(t.db, ws.id);
    // Creation times out of id order, two of them equal: the order is creation time, then id.
    const day = 86_400_000;
    const created = { Ada: 3, Grace: 1, Alan: 1, Barbara: 5, Edsger: 0 };
    for (const [name, days] of Object.entries(created)) {
      const createdAt = new Date(Date.parse(T0) + days * day).toISOString();
      contacts.push(String(await f.contact({ email: `${name.toLowerCase()}@example.com`, firstName: name, createdAt })));
    }
    await f.conversation({ contactId: Number(contacts[0]) });
    await f.commentAutomation('net', 'FAQ');
    await f.commentAutomation('photo', 'Promo');
  });
  afterAll(() => t.close());

  it('walks every contact, newest first (creation time, then id), two at a time', async () => {
    const seen: string[] = [];
    let after: string | null | undefined;
    const pages: boolean[] = [];
    do {
      const res = await gql(t, ContactIdsDocument, { first: 2, after }, token);
      const { edges, pageInfo } = res.body.data!.contacts;
      seen.push(...edges.map((e) => e.node.id));
      pages.push(pageInfo.hasNextPage);
      after = pageInfo.hasNextPage ? pageInfo.endCursor : null;
    } while (after);
    const [ada, grace, alan, barbara, edsger] = contacts;
    expect(seen).toEqual([barbara, ada, alan, grace, edsger]);
    expect(pages).toEqual([true, true, false]);
  });

  it("answers each edge's cursor, where paging after it continues", async () => {
    const [ada, grace, alan, barbara, edsger] = contacts;
    const page = (await gql(t, ContactEdgeCursorsDocument, { first: 3 }, token)).body.data!.contacts;
    expect(page.edges.map((e) => e.node.id)).toEqual([barbara, ada, alan]);
    expect(new Set(page.edges.map((e) => e.cursor)).size).toBe(3);
    expect(page.pageInfo).toEqual({ startCursor: page.edges[0].cursor, endCursor: page.edges[2].cursor });
    for (const [i, rest] of [[0, [ada, alan, grace, edsger]], [1, [alan, grace, edsger]]] as const) {
      const next = await gql(t, ContactEdgeCursorsDocument, { first: 10, after: page.edges[i].cursor }, token);
      expect(next.body.data!.contacts.edges.map((e) => e.node.id)).toEqual(rest);
    }
  });

  it('filters contacts by keyword (case-insensitive substring of name, email or phone)', async () => {
    const res = await gql(t, ContactIdsDocument, { keyword: 'RA', first: 10 }, token);
    expect(res.body.data!.contacts.edges.map((e) => e.node.id)).toEqual([contacts[3], contacts[1]]); // Barbara, Grace
    const none = await gql(t, ContactIdsDocument, { keyword: 'zz%' }, token);
    expect(none.body.data!.contacts).toEqual({ edges: [], pageInfo: { hasNextPage: false, endCursor: null } });
  });

  it('refuses a cursor of another list, or one that is not a cursor', async () => {
    const conversations = await gql(t, ConversationsDocument, { first: 1 }, token);
    const foreign = conversations.body.data!.conversations.pageInfo.endCursor!;
    for (const after of [foreign, 'not-a-cursor']) {
      const res = await gql(t, ContactIdsDocument, { after }, token);
      expect(res.body).toEqual({ data: null, errors: [invalidInput(['contacts'], [{ message: 'after is not a cursor of this list', path: ['after'] }], 'after is not a cursor of this list')] });
    }
  });

  it('filters comment automations by channel', async () => {
    const net = await gql(t, CommentAutomationsDocument, { channel: 'net' }, token);
    expect(net.body.data!.commentAutomations.edges.map((e) => [e.node.channel, e.node.name])).toEqual([['net', 'FAQ']]);
    const all = await gql(t, CommentAutomationsDocument, {}, token);
    expect(all.body.data!.commentAutomations.edges.map((e) => e.node.name)).toEqual(['Promo', 'FAQ']);
  });
});
