import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngine } from './support/engine.js';
import { createEngineTestApp, type EngineTestApp } from './support/engine-app.js';
import { commentWorld, createAutomation, deliver, eventLines, linkedContact, outboxLines, photoWebhook } from './support/comment-engine.js';
import { recordedEvents } from './support/recorded-events.js';

/**
 * A delivery's comments are processed in one transaction that holds the writes nothing in it reads
 * back (src/db/held-writes.ts): the replies' workspace events, the conversations' reply times,
 * the contacts' last message times and the comment events' outcomes are written once for the
 * chunk, each as one statement, with what writing them one by one would leave; a read that needs
 * them finds them written: the MAC limit's count here; the per-author rules in
 * engine.comments.options.test.ts (a reply skipped within one delivery).
 */
describe(`a chunk's held writes on ${testEngine}`, () => {
  let t: EngineTestApp;
  beforeAll(async () => {
    t = await createEngineTestApp({}, { captureStatements: true });
  });
  afterAll(() => t?.close());

  const count = (prefix: string) => t.statements.filter((s) => s.startsWith(prefix)).length;

  it('ten answered comments of known contacts: one events insert and one update each of conversations, contacts and comment events', async () => {
    const w = await commentWorld(t);
    const id = await createAutomation(t, w.ws, 'photo');
    const people = Array.from({ length: 10 }, (_, i) => `held-${i}`);
    const contactIds = [];
    for (const p of people) contactIds.push(await linkedContact(t, w.ws.id, w.photo.inboxId, 'photo', p));
    const recorded = recordedEvents(t.db, w.ws.id);
    await recorded.next();
    const before = new Date().toISOString();
    t.statements.length = 0;
    await deliver(t, 'photo', photoWebhook(w.photo.account, ...people.map((p, i) => ({ id: `held-c${i}`, from: p }))));

    expect((await outboxLines(t, w.ws)).sort()).toEqual(people.map((_, i) => `privateReply held-c${i} Thanks!`).sort());
    expect(count('insert into "workspace_events"')).toBe(1);
    expect(count('update "conversations" set "admin_replied_at"')).toBe(1);
    expect(count('update "contacts" set "last_message_at"')).toBe(1);
    expect(count('update "comment_events"')).toBe(1);
    expect((await eventLines(t, w.ws, 'photo', id)).sort()).toEqual(people.map((_, i) => `held-c${i} acted`).sort());

    // What they wrote: a messageSent event per reply, in the order of the comments.
    const events = await recorded.next();
    expect(events.map((e) => [e.type, e.contactId])).toEqual(contactIds.map((id) => ['messageSent', id]));
    const contacts = await t.db.selectFrom('contacts').select(['id', 'last_message_at']).where('workspace_id', '=', w.ws.id).orderBy('id').execute();
    const conversations = await t.db.selectFrom('conversations').select(['contact_id', 'admin_replied_at', 'last_activity_at']).where('workspace_id', '=', w.ws.id).orderBy('contact_id').execute();
    expect(conversations.map((c) => c.contact_id)).toEqual(contactIds);
    for (const c of contacts) expect(Date.parse(c.last_message_at!)).toBeGreaterThanOrEqual(Date.parse(before));
    for (const c of conversations) {
      expect(Date.parse(c.admin_replied_at!)).toBeGreaterThanOrEqual(Date.parse(before));
      expect(c.last_activity_at).toBe(c.admin_replied_at);
    }
  });

  it('a contact acted on earlier in the delivery counts towards the MAC limit of a later comment in it', async () => {
    const w = await commentWorld(t, { macLimit: 1 });
    const id = await createAutomation(t, w.ws, 'photo', { privateReply: { type: 'none', value: null }, options: { likeUserComment: true } });
    // Made two months ago and silent since: not active this month, so the limit is not reached yet.
    await linkedContact(t, w.ws.id, w.photo.inboxId, 'photo', 'held-old', { createdAt: new Date(Date.now() - 62 * 86_400_000).toISOString() });
    await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'held-mac-old', from: 'held-old' }, { id: 'held-mac-next', from: 'held-newcomer' }));
    expect(await outboxLines(t, w.ws)).toEqual(['like held-mac-old']);
    expect((await eventLines(t, w.ws, 'photo', id)).sort()).toEqual(['held-mac-next declined macLimitReached', 'held-mac-old acted']);
  });

});
