import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngine } from './support/engine.js';
import { createEngineTestApp, type EngineTestApp } from './support/engine-app.js';
import { commentWorld, counters, createAutomation, deliver, eventLines, events, linkedContact, outbox, outboxLines, photoWebhook } from './support/comment-engine.js';
import { recordedEvents } from './support/recorded-events.js';

/**
 * A delivery's comments are processed in one transaction that holds the writes nothing in it reads
 * back (src/db/held-writes.ts): the replies' workspace events, the conversations' reply times,
 * the contacts' last message times and the comment events' outcomes are written once for the
 * chunk, each as one statement, with what writing them one by one would leave; so are the new
 * rows whose ids the chunk uses at once (comment events, reply claims, messages, outbox entries),
 * with ids taken ahead, and an outcome set while its comment event is held is written with it.
 * A read that needs them finds them written: the MAC limit's count here; the per-author rules in
 * engine.comments.options.test.ts (a reply skipped within one delivery). A held row that meets a
 * row written meanwhile makes the chunk run again row by row.
 */
describe(`a chunk's held writes on ${testEngine}`, () => {
  let t: EngineTestApp;
  beforeAll(async () => {
    t = await createEngineTestApp({}, { captureStatements: true });
  });
  afterAll(() => t?.close());

  const count = (prefix: string) => t.statements.filter((s) => s.startsWith(prefix)).length;

  it('ten answered comments of known contacts: one insert or update of each table they write', async () => {
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
    // The rows whose ids the chunk uses at once, inserted with ids taken ahead (one statement for
    // the three tables' ids): one insert each; the comment events in their final state, so never updated.
    expect(count(testEngine === 'postgres' ? 'select nextval(' : 'update sqlite_sequence set seq = seq +')).toBe(1);
    expect(count('insert into "comment_events"')).toBe(1);
    expect(count('update "comment_events"')).toBe(0);
    expect(count('insert into "comment_reply_claims"')).toBe(1);
    expect(count('insert into "messages"')).toBe(1);
    expect(count('insert into "outbox"')).toBe(1);
    expect((await eventLines(t, w.ws, 'photo', id)).sort()).toEqual(people.map((_, i) => `held-c${i} acted`).sort());

    // The ids taken ahead tie the rows together as rows inserted one by one would: each reply's
    // outbox entry is keyed by its comment event, and its message names that entry.
    const records = await t.db.selectFrom('comment_events').select(['id', 'comment_id', 'contact_id']).where('workspace_id', '=', w.ws.id).execute();
    const entries = await t.db.selectFrom('outbox').select(['id', 'comment_id', 'dedupe_key', 'contact_id']).where('workspace_id', '=', w.ws.id).execute();
    const messages = await t.db.selectFrom('messages').select(['external_id', 'contact_id']).where('workspace_id', '=', w.ws.id).execute();
    const claims = await t.db.selectFrom('comment_reply_claims').select(['comment_id', 'automation_id']).where('workspace_id', '=', w.ws.id).execute();
    expect(records).toHaveLength(10);
    expect(claims.map((c) => [c.comment_id, c.automation_id]).sort()).toEqual(people.map((_, i) => [`held-c${i}`, Number(id)]).sort());
    for (const r of records) {
      const entry = entries.find((e) => e.dedupe_key === `comment:${r.id}:privateReply`);
      expect(entry?.comment_id).toBe(r.comment_id);
      expect(entry?.contact_id).toBe(r.contact_id);
      expect(messages.find((m) => m.external_id === `outbox:${entry!.id}`)?.contact_id).toBe(r.contact_id);
    }

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

  it('a held row that meets a row written meanwhile: the delivery is processed again row by row, with the usual answer', async () => {
    const w = await commentWorld(t);
    const id = await createAutomation(t, w.ws, 'photo');
    const other = await createAutomation(t, w.ws, 'photo', { includeKeywords: { type: 'contain', value: ['never-said'] } });
    // Another automation took this comment's private reply before the delivery came (as another
    // worker would while this chunk runs): the held claim meets its row when written.
    await t.db
      .insertInto('comment_reply_claims')
      .values({ workspace_id: w.ws.id, inbox_id: w.photo.inboxId, comment_id: 'held-taken', kind: 'private', automation_id: Number(other), created_at: new Date().toISOString() })
      .execute();
    await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'held-free-1', from: 'held-p1' }, { id: 'held-taken', from: 'held-p2' }, { id: 'held-free-2', from: 'held-p3' }));
    expect((await outboxLines(t, w.ws)).sort()).toEqual(['privateReply held-free-1 Thanks!', 'privateReply held-free-2 Thanks!']);
    const lines = (await events(t, w.ws, 'photo', id)).map((e) => `${e.commentId} ${e.outcome} ${e.actions.map((a: any) => `${a.action}:${a.status}:${a.error ?? ''}`).join(',')}`);
    expect(lines.sort()).toEqual(['held-free-1 acted privateReply:done:', 'held-free-2 acted privateReply:done:', 'held-taken declined privateReply:skipped:alreadyRepliedPrivately']);
    expect((await counters(t, w.ws, 'photo', id)).repliesCount).toBe(2);
  });

  it('one comment answered by three automations: the second and third claims are refused in the chunk, not by running it again', async () => {
    const w = await commentWorld(t);
    const ids = [await createAutomation(t, w.ws, 'photo'), await createAutomation(t, w.ws, 'photo'), await createAutomation(t, w.ws, 'photo')];
    t.statements.length = 0;
    await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'held-thrice', from: 'held-p4' }));
    expect(await outboxLines(t, w.ws)).toEqual(['privateReply held-thrice Thanks!']);
    // One held insert of the one claim; a run again row by row would add three more.
    expect(count('insert into "comment_reply_claims"')).toBe(1);
    const outcomes = [];
    for (const id of ids) outcomes.push(...(await eventLines(t, w.ws, 'photo', id)));
    expect(outcomes.sort()).toEqual(['held-thrice acted', 'held-thrice declined alreadyRepliedPrivately', 'held-thrice declined alreadyRepliedPrivately']);
  });

  it('ids taken ahead and not used go back on SQLite: the next row gets the next id', async () => {
    const w = await commentWorld(t);
    await createAutomation(t, w.ws, 'photo');
    await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'held-seq-1', from: 'held-s1' }, { id: 'held-seq-2', from: 'held-s2' }));
    await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'held-seq-3', from: 'held-s3' }));
    const ids = (await outbox(t, w.ws)).map((e) => Number(e.id)).sort((a, b) => a - b);
    expect(ids).toHaveLength(3);
    // PostgreSQL's sequences never go back (another transaction may have taken ids past them), so
    // its ids only increase; SQLite, one writer at a time, leaves no gap.
    if (testEngine === 'sqlite') expect(ids).toEqual([ids[0], ids[0]! + 1, ids[0]! + 2]);
    else expect(ids[2]).toBeGreaterThan(ids[1]!);
  });

});
