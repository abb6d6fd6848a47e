// `npm run bench:engine-floor`: what the database alone costs to record the engine bench's answered
// comments, in the two shapes a chunk of events can take. No server, no queue, no matching: the
// rows an answered comment leaves (bench/engine.ts's workload: its contact, link and conversation
// when new, its comment event, reply claim, outbox entry, message, two workspace events, the
// conversation's and contact's activity, its outcome, the event marked processed, the counters),
// written straight through Kysely in transactions of 20 events, by BENCH_FLOOR_CONCURRENCY (4, the
// worker's default) chunks at once on PostgreSQL, one at a time on SQLite.
// - `rows`: one statement per row, as the engine writes them (about 12 an event);
// - `sets`: one statement per table a chunk (multi-row inserts; updates and reads of the chunk's
//   rows by a JSON array of them), about 19 a chunk.
// Its CPU an event (this process's and PostgreSQL's) is a floor under the engine's: what is left for
// the webhook, the queue and the engine's own work. Same options as bench/engine.ts
// (BENCH_ENGINE_DATABASE_URL, BENCH_EVENTS, BENCH_AUTHORS, BENCH_AUTOMATIONS, BENCH_SEED), and
// BENCH_FLOOR_SHAPES (rows,sets). Results: printed; with --save also bench/results/engine-floor-<engine>.md.
import { sql } from 'kysely';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase, type Database, type Executor } from '../src/db/database.js';
import { sameWorkspace } from '../src/domain/shared/scope.js';
import { commentSource, seedWorkspace, type BenchComment } from './engine-workload.js';
import { postgresCpuBetween, postgresCpuMs, writeResult } from './lib.js';

const automations = Number(process.env.BENCH_AUTOMATIONS ?? 1000);
const totalEvents = Number(process.env.BENCH_EVENTS ?? 20_000);
const authors = Number(process.env.BENCH_AUTHORS ?? 5000);
const seed = Number(process.env.BENCH_SEED ?? 42);
// Each shape starts from an empty database: a new SQLite file, or the PostgreSQL database emptied.
const databaseUrlOf = () => process.env.BENCH_ENGINE_DATABASE_URL ?? join(mkdtempSync(join(tmpdir(), 'engine-floor-')), 'engine.db');
const engine = process.env.BENCH_ENGINE_DATABASE_URL?.startsWith('postgres') ? 'postgres' : 'sqlite';
const concurrency = engine === 'postgres' ? Number(process.env.BENCH_FLOOR_CONCURRENCY ?? 4) : 1;
const shapes = (process.env.BENCH_FLOOR_SHAPES ?? 'rows,sets').split(',') as Shape[];
const CHUNK = 20;

type Shape = 'rows' | 'sets';
interface Event extends BenchComment {
  eventId: number;
  automationId: number;
}
interface Ctx {
  db: Executor;
  workspaceId: number;
  inboxId: number;
}
/** A contact as the engine reads it by its source id (with the thread's standby, unused here): the contact and its conversation in the inbox. */
interface Known {
  contactId: number;
  conversationId: number | null;
}

const iso = () => new Date().toISOString();
let statements = 0;

type Column = 'integer' | 'text' | 'timestamptz';

/**
 * Updates the chunk's rows of `table` (by id, in the workspace) from one JSON array of them:
 * PostgreSQL joins json_to_recordset; SQLite, whose planner would walk the workspace's rows for
 * an UPDATE ... FROM, looks each id up from a CTE over json_each (the workspace checked with a
 * unary `+`, as src/domain/shared/scope.ts explains).
 */
function updateByRows(c: Ctx, table: 'conversations' | 'contacts' | 'comment_events', rows: Record<string, string | number | null>[], columns: Record<string, Column>, set: Record<string, string>) {
  statements++;
  const text = JSON.stringify(rows);
  const names = Object.keys(columns);
  const targets = Object.keys(set);
  if (engine === 'postgres') {
    return sql`update ${sql.table(table)} set ${sql.raw(targets.map((t) => `${t} = ${set[t]}`).join(', '))} from json_to_recordset(${text}::json) as v(${sql.raw(names.map((n) => `${n} ${columns[n]}`).join(', '))}) where ${sql.ref(`${table}.workspace_id`)} = ${c.workspaceId} and ${sql.ref(`${table}.id`)} = v.id`.execute(c.db);
  }
  return sql`with v as (select ${sql.raw(names.map((n) => `json_extract(value, '$.${n}') as ${n}`).join(', '))} from json_each(${text})) update ${sql.table(table)} set (${sql.raw(targets.join(', '))}) = (select ${sql.raw(targets.map((t) => set[t]).join(', '))} from v where v.id = ${sql.ref(`${table}.id`)}) where +workspace_id = ${c.workspaceId} and id in (select id from v)`.execute(c.db);
}

/** The comment's automation, chosen as the engine's matching does: its keyword. */
const automationOf = (text: string, ids: number[]) => ids[Number(/kw(\d+)/.exec(text)![1])]!;

async function markAndCount(c: Ctx, events: Event[]) {
  const at = iso();
  statements += 2;
  await c.db
    .updateTable('channel_events')
    .set({ processed_at: at, outcome: 'comment: 1 matched, 0 declined' })
    .where(sameWorkspace('workspace_id', c.workspaceId))
    .where('id', 'in', events.map((e) => e.eventId))
    .execute();
  // The counters: one update for the chunk, as counter-tally.ts writes them.
  await c.db
    .updateTable('comment_automations')
    .set((eb) => ({ sent_count: eb('sent_count', '+', 1), delivered_count: eb('delivered_count', '+', 1), replies_count: eb('replies_count', '+', 1) }))
    .where('workspace_id', '=', c.workspaceId)
    .where('id', 'in', [...new Set(events.map((e) => e.automationId))].sort((a, b) => a - b))
    .execute();
}

const newContactBody = (contactId: number, name: string, at: string) =>
  JSON.stringify({ event: 'new_contact', contact_id: String(contactId), timestamp: at, name, first_name: name, last_name: null, phone: null, email: null, custom_fields: {} });
const sentBody = (e: Event, contactId: number, messageId: number, conversationId: number, text: string, at: string) =>
  JSON.stringify({ event: 'message_sent', contact_id: String(contactId), timestamp: at, message_id: String(messageId), conversation_id: String(conversationId), inbox_id: '1', text, attachments: [], automation_kind: 'comment', automation_id: String(e.automationId) });
const replyText = (name: string, e: Event) => `Hi ${name}, here is what you asked about (${/kw\d+/.exec(e.text)![0]})`;
const contactRow = (c: Ctx, name: string, at: string) => ({ workspace_id: c.workspaceId, gender: 'unknown' as const, email_verified: 0, email_opt_in: 0, first_name: name, last_message_at: at, created_at: at, updated_at: at });
const conversationRow = (c: Ctx, contactId: number, at: string) => ({ workspace_id: c.workspaceId, contact_id: contactId, inbox_id: c.inboxId, bot_enabled: 1, followed: 0, additional_attributes: '{}', created_at: at, updated_at: at });
const commentEventRow = (c: Ctx, e: Event, contactId: number, at: string) => ({
  workspace_id: c.workspaceId, channel: 'photo' as const, automation_id: e.automationId, event_id: e.eventId, comment_id: e.id, post_id: 'bm-1', author_id: e.authorId,
  contact_id: contactId, outcome: 'pending' as const, reason: null, actions: JSON.stringify([{ action: 'privateReply', status: 'scheduled', at }]), created_at: at, updated_at: at,
});
const outboxRow = (c: Ctx, e: Event, contactId: number, commentEventId: number, name: string, at: string) => ({
  workspace_id: c.workspaceId, inbox_id: c.inboxId, channel: 'photo' as const, action: 'privateReply' as const, comment_id: e.id, post_id: 'bm-1', recipient_id: null, contact_id: contactId,
  automation_kind: 'comment' as const, automation_id: e.automationId, payload: JSON.stringify({ type: 'text', text: replyText(name, e) }), dedupe_key: `comment:${commentEventId}:privateReply`, created_at: at,
});
const messageRow = (c: Ctx, e: Event, contactId: number, conversationId: number, outboxId: number, name: string, at: string) => ({
  workspace_id: c.workspaceId, conversation_id: conversationId, contact_id: contactId, inbox_id: c.inboxId, direction: 'outgoing' as const, external_id: `outbox:${outboxId}`,
  text: replyText(name, e), attachments: '[]', status: 'sent' as const, automation_kind: 'comment' as const, automation_id: e.automationId, created_at: at,
});
const doneActions = (at: string) => JSON.stringify([{ action: 'privateReply', status: 'done', at }]);

/** The contact of each source id in the inbox, as the engine's contact read answers it. */
function contactsOfSources(c: Ctx, sourceIds: string[]) {
  statements++;
  return c.db
    .selectFrom('contact_inboxes as ci')
    .innerJoin('contacts as k', 'k.id', 'ci.contact_id')
    .leftJoin('conversations as v', (j) => j.onRef('v.contact_id', '=', 'k.id').onRef('v.inbox_id', '=', 'ci.inbox_id'))
    .leftJoin('thread_states as t', 't.contact_inbox_id', 'ci.id')
    .select(['ci.source_id', 'k.id', 'k.first_name', 'k.blocked_at', 'v.id as conversation_id', 't.expires_at'])
    .where('ci.workspace_id', '=', c.workspaceId)
    .where('ci.inbox_id', '=', c.inboxId)
    .where('ci.source_id', 'in', sourceIds)
    .execute();
}

/** One statement per row: the engine's own shape. */
async function chunkByRows(c: Ctx, events: Event[]) {
  for (const e of events) {
    const at = iso();
    statements++;
    const recorded = await c.db.selectFrom('comment_events').select('automation_id').where('workspace_id', '=', c.workspaceId).where('comment_id', '=', e.id).where('automation_id', '=', e.automationId).execute();
    if (recorded.length > 0) continue;
    const [found] = await contactsOfSources(c, [e.authorId]);
    let known: Known;
    if (found) known = { contactId: found.id, conversationId: found.conversation_id };
    else {
      statements += 4;
      const contact = await c.db.insertInto('contacts').values(contactRow(c, e.authorName, at)).returning('id').executeTakeFirstOrThrow();
      await c.db.insertInto('contact_inboxes').values({ workspace_id: c.workspaceId, contact_id: contact.id, inbox_id: c.inboxId, channel: 'photo', source_id: e.authorId, created_at: at }).execute();
      const conversation = await c.db.insertInto('conversations').values(conversationRow(c, contact.id, at)).returning('id').executeTakeFirstOrThrow();
      await c.db.insertInto('workspace_events').values({ workspace_id: c.workspaceId, type: 'newContact', contact_id: contact.id, body: newContactBody(contact.id, e.authorName, at), occurred_at: at }).execute();
      known = { contactId: contact.id, conversationId: conversation.id };
    }
    const conversationId = known.conversationId!;
    statements += 8;
    const row = await c.db.insertInto('comment_events').values(commentEventRow(c, e, known.contactId, at)).onConflict((oc) => oc.doNothing()).returning('id').executeTakeFirstOrThrow();
    await c.db.insertInto('comment_reply_claims').values({ workspace_id: c.workspaceId, inbox_id: c.inboxId, comment_id: e.id, kind: 'private' as const, automation_id: e.automationId, created_at: at }).onConflict((oc) => oc.doNothing()).execute();
    const outbox = await c.db.insertInto('outbox').values(outboxRow(c, e, known.contactId, row.id, e.authorName, at)).returning('id').executeTakeFirstOrThrow();
    const message = await c.db.insertInto('messages').values(messageRow(c, e, known.contactId, conversationId, outbox.id, e.authorName, at)).returning('id').executeTakeFirstOrThrow();
    await c.db.insertInto('workspace_events').values({ workspace_id: c.workspaceId, type: 'messageSent', contact_id: known.contactId, body: sentBody(e, known.contactId, message.id, conversationId, replyText(e.authorName, e), at), occurred_at: at }).execute();
    await c.db.updateTable('conversations').set({ admin_replied_at: at, last_activity_at: at, updated_at: at }).where('workspace_id', '=', c.workspaceId).where('id', '=', conversationId).execute();
    await c.db.updateTable('comment_events').set({ outcome: 'acted', actions: doneActions(at), updated_at: at }).where('workspace_id', '=', c.workspaceId).where('id', '=', row.id).execute();
    if (found) {
      statements++;
      await c.db.updateTable('contacts').set({ last_message_at: at }).where('workspace_id', '=', c.workspaceId).where('id', '=', known.contactId).execute();
    }
  }
  await markAndCount(c, events);
}

/** One statement per table a chunk: the set-based shape. */
async function chunkBySets(c: Ctx, events: Event[]) {
  const at = iso();
  statements += 11;
  // By (automation, comment), as the unique index holds them: both lists, its pairs probed.
  const recorded = await c.db
    .selectFrom('comment_events')
    .select(['automation_id', 'comment_id'])
    .where('workspace_id', '=', c.workspaceId)
    .where('automation_id', 'in', [...new Set(events.map((e) => e.automationId))])
    .where('comment_id', 'in', events.map((e) => e.id))
    .execute();
  const done = new Set(recorded.map((r) => `${r.automation_id}:${r.comment_id}`));
  const todo = events.filter((e) => !done.has(`${e.automationId}:${e.id}`));
  if (todo.length === 0) return markAndCount(c, events);
  const found = new Map((await contactsOfSources(c, todo.map((e) => e.authorId))).map((r) => [r.source_id!, { contactId: r.id, conversationId: r.conversation_id }] as const));
  const fresh = todo.filter((e) => !found.has(e.authorId));
  const known = new Map<string, Known>(found);
  if (fresh.length > 0) {
    statements += 3;
    // A multi-row insert answers its rows in the order of its values, on both engines.
    const contacts = await c.db.insertInto('contacts').values(fresh.map((e) => contactRow(c, e.authorName, at))).returning('id').execute();
    await c.db.insertInto('contact_inboxes').values(fresh.map((e, i) => ({ workspace_id: c.workspaceId, contact_id: contacts[i]!.id, inbox_id: c.inboxId, channel: 'photo' as const, source_id: e.authorId, created_at: at }))).execute();
    const conversations = await c.db.insertInto('conversations').values(contacts.map((k) => conversationRow(c, k.id, at))).returning('id').execute();
    fresh.forEach((e, i) => known.set(e.authorId, { contactId: contacts[i]!.id, conversationId: conversations[i]!.id }));
  }
  const of = (e: Event) => known.get(e.authorId)!;
  const rows = await c.db.insertInto('comment_events').values(todo.map((e) => commentEventRow(c, e, of(e).contactId, at))).onConflict((oc) => oc.doNothing()).returning(['id', 'comment_id']).execute();
  const rowOf = new Map(rows.map((r) => [r.comment_id, r.id]));
  await c.db.insertInto('comment_reply_claims').values(todo.map((e) => ({ workspace_id: c.workspaceId, inbox_id: c.inboxId, comment_id: e.id, kind: 'private' as const, automation_id: e.automationId, created_at: at }))).onConflict((oc) => oc.doNothing()).execute();
  const outbox = await c.db.insertInto('outbox').values(todo.map((e) => outboxRow(c, e, of(e).contactId, rowOf.get(e.id)!, e.authorName, at))).returning('id').execute();
  const messages = await c.db.insertInto('messages').values(todo.map((e, i) => messageRow(c, e, of(e).contactId, of(e).conversationId!, outbox[i]!.id, e.authorName, at))).returning('id').execute();
  await c.db
    .insertInto('workspace_events')
    .values([
      ...fresh.map((e) => ({ workspace_id: c.workspaceId, type: 'newContact', contact_id: of(e).contactId, body: newContactBody(of(e).contactId, e.authorName, at), occurred_at: at })),
      ...todo.map((e, i) => ({ workspace_id: c.workspaceId, type: 'messageSent', contact_id: of(e).contactId, body: sentBody(e, of(e).contactId, messages[i]!.id, of(e).conversationId!, replyText(e.authorName, e), at), occurred_at: at })),
    ])
    .execute();
  const byIdAt = { id: 'integer', at: 'timestamptz' } as const;
  await updateByRows(c, 'conversations', todo.map((e) => ({ id: of(e).conversationId, at })), byIdAt, { admin_replied_at: 'v.at', last_activity_at: 'v.at', updated_at: 'v.at' });
  await updateByRows(c, 'comment_events', rows.map((r) => ({ id: r.id, actions: doneActions(at), at })), { id: 'integer', actions: 'text', at: 'timestamptz' }, { outcome: "'acted'", actions: 'v.actions', updated_at: 'v.at' });
  const seen = todo.filter((e) => found.has(e.authorId));
  if (seen.length > 0) await updateByRows(c, 'contacts', seen.map((e) => ({ id: of(e).contactId, at })), byIdAt, { last_message_at: 'v.at' });
  await markAndCount(c, events);
}

/** Stores the workload's events as the webhook does (not timed) and answers them in order. */
async function ingest(database: Database, c: Omit<Ctx, 'db'>): Promise<Event[]> {
  const ids = (await database.db.selectFrom('comment_automations').select('id').where('workspace_id', '=', c.workspaceId).orderBy('id').execute()).map((r) => r.id);
  // Automation i answers keyword kw<i>: created in that order.
  const next = commentSource(automations, authors, seed);
  const events: Event[] = [];
  const at = iso();
  for (let i = 0; i < totalEvents; i += 500) {
    const some = Array.from({ length: Math.min(500, totalEvents - i) }, () => next());
    const stored = await database.db
      .insertInto('channel_events')
      .values(some.map((m) => ({ workspace_id: c.workspaceId, inbox_id: c.inboxId, channel: 'photo' as const, kind: 'comment', external_id: m.id, source: 'webhook', received_at: at, payload: JSON.stringify({ kind: 'comment', commentId: m.id, text: m.text, authorId: m.authorId, authorName: m.authorName, postId: 'bm-1', postProductType: 'FEED', parentId: null, attachments: [], createdAt: at }) })))
      .returning('id')
      .execute();
    some.forEach((m, j) => events.push({ ...m, eventId: stored[j]!.id, automationId: automationOf(m.text, ids) }));
  }
  return events;
}

async function run(shape: Shape): Promise<string> {
  const database = createDatabase(databaseUrlOf());
  try {
    const { workspaceId, inboxId } = await seedWorkspace(database, automations);
    const events = await ingest(database, { workspaceId, inboxId });
    statements = 0;
    let nextChunk = 0;
    const worker = async () => {
      for (;;) {
        const start = nextChunk++ * CHUNK;
        if (start >= events.length) return;
        const some = events.slice(start, start + CHUNK);
        await database.db.transaction().execute(async (trx) => {
          // The chunk's events, read as the job reads them.
          statements++;
          const stored = await trx.selectFrom('channel_events').select(['id', 'payload']).where(sameWorkspace('workspace_id', workspaceId)).where('id', 'in', some.map((e) => e.eventId)).execute();
          if (stored.length !== some.length) throw new Error('an event went missing');
          await (shape === 'rows' ? chunkByRows : chunkBySets)({ db: trx, workspaceId, inboxId }, some);
        });
      }
    };
    const databaseBefore = engine === 'postgres' ? postgresCpuMs() : null;
    const cpuBefore = process.cpuUsage();
    const t0 = performance.now();
    await Promise.all(Array.from({ length: concurrency }, worker));
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const databaseMs = databaseBefore ? postgresCpuBetween(databaseBefore, postgresCpuMs()) : null;
    const outbox = Number((await database.db.selectFrom('outbox').select((eb) => eb.fn.countAll<number>().as('n')).where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow()).n);
    if (outbox !== events.length) throw new Error(`${outbox} outbox rows for ${events.length} events`);
    const perEvent = (ms: number) => Math.round((ms * 1000) / events.length);
    const clientUs = perEvent((cpu.user + cpu.system) / 1000);
    const databaseUs = databaseMs === null ? null : perEvent(databaseMs);
    const total = clientUs + (databaseUs ?? 0);
    return `| ${engine} | ${shape} | ${concurrency} | ${events.length} | ${round1((statements / events.length) * CHUNK)} | ${Math.round(events.length / seconds)} | ${clientUs} | ${databaseUs ?? '-'} | ${total} | ${Math.round((engine === 'postgres' ? 2e6 : 1e6) / total)} |`;
  } finally {
    await database.destroy();
  }
}

const round1 = (v: number) => Math.round(v * 10) / 10;

const lines: string[] = [];
for (const shape of shapes) lines.push(await run(shape));
const report = [
  `# Engine floor (${new Date().toISOString()}, ${engine}, seed ${seed}, ${automations} automations, ${authors} authors)`,
  '',
  '| engine | shape | chunks at once | events | statements a chunk of 20 | events/s | this process CPU us/event | PostgreSQL CPU us/event | CPU us/event | events/s the CPU allows (SQLite: its one thread; PostgreSQL: two cores) |',
  '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...lines,
  '',
].join('\n');
console.log(report);
writeResult(`engine-floor-${engine}.md`, report);
