import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertMessage } from '../src/domain/messages/message.repository.js';
import { testEngine } from './support/engine.js';
import { unlimited } from './support/endpoints.js';
import { fixtures } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

/**
 * GET /v1/contacts/{identifier}/messages: newest first by id, `limit` 1-50 at a time, opaque
 * cursors both ways that never repeat or skip a message (also when messages arrive between pages),
 * tied to their filters (inboxId, direction); GET .../messages/{messageId} answers only the
 * contact's own messages; another workspace's token reads none of them.
 */
describe(`a contact's messages, paged, on ${testEngine}`, () => {
  let t: TestApp;
  let a: TestWorkspace;
  let b: TestWorkspace;
  let contact: number;
  let otherContact: number;
  let photo: number;
  let net: number;
  /** The contact's message ids, oldest first. */
  const ids: string[] = [];

  const store = async (workspaceId: number, contactId: number, inboxId: number, conversationId: number, i: number) =>
    String(
      await insertMessage(t.db, workspaceId, {
        conversationId,
        contactId,
        inboxId,
        direction: i % 3 === 0 ? 'outgoing' : 'incoming',
        externalId: `mid-${workspaceId}-${contactId}-${i}`,
        text: `Message ${i}`,
        status: i % 3 === 0 ? 'sent' : 'received',
        createdAt: new Date(Date.UTC(2026, 10, 20, 10, i)).toISOString(),
      }),
    );

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    a = await t.workspace({ name: 'A' });
    b = await t.workspace({ name: 'B' });
    const f = fixtures(t.db, a.id);
    contact = await f.contact({ email: 'ada@example.com' });
    otherContact = await f.contact({ email: 'grace@example.com' });
    photo = await f.inbox('Photo', 'photo');
    net = await f.inbox('Net', 'net');
    await f.contactInbox(contact, photo, 'photo');
    await f.contactInbox(contact, net, 'net');
    const inPhoto = await f.conversation({ contactId: contact, inboxId: photo });
    const inNet = await f.conversation({ contactId: contact, inboxId: net });
    const ofOther = await f.conversation({ contactId: otherContact, inboxId: photo });
    for (let i = 1; i <= 12; i++) {
      ids.push(await store(a.id, contact, i % 2 ? photo : net, i % 2 ? inPhoto : inNet, i));
      // Another contact's messages interleave in id order.
      if (i % 4 === 0) await store(a.id, otherContact, photo, ofOther, 100 + i);
    }
  });
  afterAll(() => t?.close());

  const list = (query: string, token = a.developerToken, who: number | string = contact) => t.request('GET', `/v1/contacts/${who}/messages${query}`, { token });
  const idsOf = (body: { data: { id: string }[] }) => body.data.map((m) => m.id);
  const newestFirst = () => [...ids].reverse();

  it('pages newest first, forward to the end and back to the start, never repeating or skipping', async () => {
    const forward: string[][] = [];
    let page = (await list('?limit=5')).body;
    expect(page.prevCursor).toBeNull();
    forward.push(idsOf(page));
    const cursors = [];
    while (page.nextCursor) {
      cursors.push(page.nextCursor);
      page = (await list(`?limit=5&cursor=${page.nextCursor}`)).body;
      forward.push(idsOf(page));
    }
    expect(forward).toEqual([newestFirst().slice(0, 5), newestFirst().slice(5, 10), newestFirst().slice(10)]);
    expect(page.nextCursor).toBeNull();
    // Back from the last page.
    const back: string[][] = [];
    while (page.prevCursor) {
      page = (await list(`?limit=5&cursor=${page.prevCursor}`)).body;
      back.push(idsOf(page));
    }
    expect(back).toEqual([newestFirst().slice(5, 10), newestFirst().slice(0, 5)]);
    expect(page.prevCursor).toBeNull();
    expect(cursors.every((c) => /^[A-Za-z0-9_-]+$/.test(c))).toBe(true);
  });

  it('a message arriving between pages neither repeats nor hides one; prevCursor of the first page then finds it', async () => {
    const first = (await list('?limit=4')).body;
    const conversation = (await t.db.selectFrom('conversations').select('id').where('contact_id', '=', contact).where('inbox_id', '=', photo).executeTakeFirstOrThrow()).id;
    const late = await store(a.id, contact, photo, conversation, 50);
    const second = (await list(`?limit=4&cursor=${first.nextCursor}`)).body;
    expect(idsOf(second)).toEqual(newestFirst().slice(4, 8));
    const back = (await list(`?limit=4&cursor=${second.prevCursor}`)).body;
    expect(idsOf(back)).toEqual(newestFirst().slice(0, 4));
    expect(idsOf((await list(`?limit=4&cursor=${back.prevCursor}`)).body)).toEqual([late]);
    await t.db.deleteFrom('messages').where('id', '=', Number(late)).execute();
  });

  it('filters by direction and inbox; a cursor of other filters, or no cursor at all, is 422', async () => {
    const outgoing = (await list('?direction=outgoing&limit=50')).body;
    expect(outgoing.data.map((m: { text: string }) => m.text)).toEqual(['Message 12', 'Message 9', 'Message 6', 'Message 3']);
    const inNet = (await list(`?inboxId=${net}&direction=incoming&limit=2`)).body;
    expect(inNet.data.map((m: { text: string }) => m.text)).toEqual(['Message 10', 'Message 8']);
    const issue = async (query: string) => {
      const res = await list(query);
      expect(res.status).toBe(422);
      return res.body.data.issues;
    };
    expect(await issue(`?cursor=${inNet.nextCursor}`)).toEqual([{ message: 'cursor was made with other filters: use the filters of the list it came from', path: ['query', 'cursor'] }]);
    expect(await issue('?cursor=not-a-cursor')).toEqual([{ message: 'cursor is not a cursor of this list', path: ['query', 'cursor'] }]);
    expect(await issue('?limit=51')).toEqual([{ message: 'limit must be at most 50', path: ['query', 'limit'] }]);
    expect(await issue('?limit=0')).toEqual([{ message: 'limit must be at least 1', path: ['query', 'limit'] }]);
    expect(await issue('?direction=sideways')).toEqual([{ message: expect.stringMatching(/incoming|outgoing/), path: ['query', 'direction'] }]);
    const foreignInbox = await fixtures(t.db, a.id).inbox('Not hers', 'photo');
    expect(await issue(`?inboxId=${foreignInbox}`)).toEqual([{ message: `No inbox with id ${foreignInbox} among the contact's inboxes`, path: ['query', 'inboxId'] }]);
  });

  it("one message: the contact's own only; 404 for another contact's, an unknown id, an unknown contact", async () => {
    const res = await t.request('GET', `/v1/contacts/${contact}/messages/${ids[2]}`, { token: a.developerToken });
    expect(res.body).toEqual((await list('?limit=50')).body.data.find((m: { id: string }) => m.id === ids[2]));
    expect(res.body).toMatchObject({ text: 'Message 3', direction: 'outgoing', inboxId: String(photo) });
    const others = (await list('?limit=50', a.developerToken, otherContact)).body.data;
    expect(others.map((m: { text: string }) => m.text)).toEqual(['Message 112', 'Message 108', 'Message 104']);
    for (const path of [`/v1/contacts/${contact}/messages/${others[0].id}`, `/v1/contacts/${contact}/messages/99999999`, `/v1/contacts/424242/messages/${ids[0]}`, '/v1/contacts/424242/messages']) {
      const r = await t.request('GET', path, { token: a.developerToken });
      expect([r.status, r.body.code], path).toEqual([404, 'notFound']);
    }
  });

  it("another workspace's token reads none of them (404), with or without its own contact", async () => {
    const theirs = await fixtures(t.db, b.id).contact({ email: 'ada@example.com' });
    for (const path of [`/v1/contacts/${contact}/messages`, `/v1/contacts/${contact}/messages/${ids[0]}`, `/v1/contacts/${theirs}/messages/${ids[0]}`]) {
      const r = await t.request('GET', path, { token: b.developerToken });
      expect([r.status, r.body.code], path).toEqual([404, 'notFound']);
    }
    // The same email in B names B's contact, which has no messages.
    expect((await list('', b.developerToken, 'email:ada@example.com')).body).toEqual({ data: [], nextCursor: null, prevCursor: null });
  });
});
