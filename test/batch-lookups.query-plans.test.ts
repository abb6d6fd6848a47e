import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCounts, commentAutomationsByIds, lockCommentAutomations } from '../src/domain/comment-automations/comment-automation.repository.js';
import { existingContactIds, findContactsByIds, findContactsOfSources } from '../src/domain/contacts/contact.repository.js';
import { notesByIds } from '../src/domain/contacts/contact-note.repository.js';
import { conversationsByIds } from '../src/domain/conversations/conversation.repository.js';
import { customFieldsByIds } from '../src/domain/custom-fields/custom-field.repository.js';
import { dynamicImagesByIds } from '../src/domain/dynamic-images/dynamic-image.repository.js';
import { errorLogsByIds } from '../src/domain/error-logs/error-log.repository.js';
import { findChannelEvents, markChannelEventsProcessed } from '../src/domain/events/channel-event.repository.js';
import { flowIdsAmong, flowsByIds } from '../src/domain/flows/flow.repository.js';
import { foldersByIds } from '../src/domain/folders/folder.repository.js';
import { contactInboxesByIds } from '../src/domain/inboxes/inbox.repository.js';
import { leadAdAutomationsByIds } from '../src/domain/lead-ads/lead-ad.repository.js';
import { messagesByIds } from '../src/domain/messages/message.repository.js';
import { outboxEntriesByIds } from '../src/domain/outbox/outbox.repository.js';
import { sequenceIdsAmong, sequencesAmong, sequencesByIds } from '../src/domain/sequences/sequence.repository.js';
import { liveTagIdsAmong, liveTagsAmong, tagsByIds } from '../src/domain/tags/tag.repository.js';
import { externalWebhooksByIds, webhooksByIds } from '../src/domain/webhooks/webhook.repository.js';
import type { Executor } from '../src/db/database.js';
import { testEngine } from './support/engine.js';
import { fixtures } from './support/fixtures.js';
import { createTestApp, type TestApp } from './support/harness.js';
import { openRecordingHandle, type RecordingHandle } from './support/query-plans.js';

/**
 * Every lookup of a workspace's rows by a list of ids (DataLoaders, a chunk of engine events, bulk
 * operations) finds them by id. SQLite without table statistics (a database made by `npm start`,
 * which never runs ANALYZE) takes `workspace_id = ? AND id IN (...)` on a table with an index that
 * starts with workspace_id as a read of that index's whole workspace range, then a filter on id: a
 * cost that grows with the workspace, for a statement that wants ten rows. `sameWorkspace`
 * (src/domain/shared/scope.ts) keeps the check and leaves the plan to the primary key.
 * PostgreSQL plans from the statistics it gathers itself, so the plans asked here are SQLite's.
 */
describe.runIf(testEngine === 'sqlite')('lookups by a list of ids use the primary key', () => {
  let t: TestApp;
  let recording: RecordingHandle;
  let workspaceId: number;
  // As many as a DataLoader batches: with three, SQLite chose the primary key where with ten it walked the range.
  const ids = Array.from({ length: 50 }, (_, i) => i + 1);

  beforeAll(async () => {
    t = await createTestApp();
    workspaceId = (await t.workspace()).id;
    recording = await openRecordingHandle(t.app.deps.config.DATABASE_URL);
  });
  afterAll(async () => {
    await recording.close();
    await t.close();
  });

  const lookups: Record<string, (db: Executor) => Promise<unknown>> = {
    commentAutomationsByIds: (db) => commentAutomationsByIds(db, workspaceId, ids),
    addCounts: (db) => addCounts(db, workspaceId, ids, { sent_count: 1 }),
    findContactsByIds: (db) => findContactsByIds(db, workspaceId, ids),
    existingContactIds: (db) => existingContactIds(db, workspaceId, ids),
    notesByIds: (db) => notesByIds(db, workspaceId, ids),
    conversationsByIds: (db) => conversationsByIds(db, workspaceId, ids),
    customFieldsByIds: (db) => customFieldsByIds(db, workspaceId, ids),
    dynamicImagesByIds: (db) => dynamicImagesByIds(db, workspaceId, ids),
    errorLogsByIds: (db) => errorLogsByIds(db, workspaceId, ids),
    findChannelEvents: (db) => findChannelEvents(db, workspaceId, ids),
    markChannelEventsProcessed: (db) => markChannelEventsProcessed(db, workspaceId, ids.map((id) => ({ id, outcome: 'done' }))),
    flowsByIds: (db) => flowsByIds(db, workspaceId, ids),
    flowIdsAmong: (db) => flowIdsAmong(db, workspaceId, ids),
    foldersByIds: (db) => foldersByIds(db, workspaceId, 'commentAutomation', ids),
    contactInboxesByIds: (db) => contactInboxesByIds(db, workspaceId, ids),
    leadAdAutomationsByIds: (db) => leadAdAutomationsByIds(db, workspaceId, ids),
    messagesByIds: (db) => messagesByIds(db, workspaceId, ids),
    outboxEntriesByIds: (db) => outboxEntriesByIds(db, workspaceId, ids),
    sequencesByIds: (db) => sequencesByIds(db, workspaceId, ids),
    sequencesAmong: (db) => sequencesAmong(db, workspaceId, ids),
    sequenceIdsAmong: (db) => sequenceIdsAmong(db, workspaceId, ids),
    tagsByIds: (db) => tagsByIds(db, workspaceId, ids),
    liveTagIdsAmong: (db) => liveTagIdsAmong(db, workspaceId, ids),
    liveTagsAmong: (db) => liveTagsAmong(db, workspaceId, ids),
    webhooksByIds: (db) => webhooksByIds(db, workspaceId, ids),
    externalWebhooksByIds: (db) => externalWebhooksByIds(db, workspaceId, ids),
    // Not by id, but by the inbox's unique (inbox, source id) index: a chunk's commenters.
    findContactsOfSources: (db) => findContactsOfSources(db, workspaceId, 1, ['a', 'b']),
  };

  it('every one reads its rows by id, not the workspace range of an index', async () => {
    const misread: string[] = [];
    for (const [name, lookup] of Object.entries(lookups)) {
      const statements = await recording.statementsOf(() => lookup(recording.db));
      if (statements.length === 0) misread.push(`${name}: ran no statement`);
      for (const s of statements) {
        // The workspace range alone (`SEARCH t USING [COVERING] INDEX i (workspace_id=?)`, nothing
        // after it), or a table scanned (a list passed as one parameter is read with json_each).
        if (/INDEX \w+ \(workspace_id=\?\)$/m.test(s.plan) || /^SCAN (?!json_each)/m.test(s.plan)) misread.push(`${name}: ${s.sql}\n${s.plan}`);
      }
    }
    expect(misread).toEqual([]);
  });
});

/**
 * PostgreSQL keeps a generic plan of a named statement, made from its text alone. Without
 * statistics of a table (autovacuum not run yet on it, or off), the plan of `inbox_id = $1 and
 * source_id = any($2)` read the inbox's whole range of links and filtered them: for the engine's
 * chunk of commenters, a read that grew with the inbox (5,000 rows a chunk in bench/engine.ts).
 */
describe.runIf(testEngine === 'postgres')('PostgreSQL without statistics: the engine\'s reads by key', () => {
  let t: TestApp;
  let recording: RecordingHandle;

  beforeAll(async () => {
    t = await createTestApp();
    recording = await openRecordingHandle(t.app.deps.config.DATABASE_URL, { genericPlans: true });
  });
  afterAll(async () => {
    await recording.close();
    await t.close();
  });

  it('by both columns of the index, in the plan PostgreSQL keeps', async () => {
    // An inbox of 2,000 people, as the table grows between two runs of autovacuum's ANALYZE.
    const ws = (await t.workspace()).id;
    const inboxId = await fixtures(t.db, ws).inbox('shop', 'photo');
    const at = new Date().toISOString();
    const people = Array.from({ length: 2000 }, (_, i) => i);
    const contacts = await t.db.insertInto('contacts').values(people.map(() => ({ workspace_id: ws, gender: 'unknown' as const, email_verified: 0, email_opt_in: 0, created_at: at, updated_at: at }))).returning('id').execute();
    await t.db.insertInto('contact_inboxes').values(contacts.map((c, i) => ({ workspace_id: ws, contact_id: c.id, inbox_id: inboxId, channel: 'photo', source_id: `person-${i}`, created_at: at }))).execute();
    const [statement] = await recording.statementsOf(() => findContactsOfSources(recording.db, ws, inboxId, ['person-1', 'person-2']));
    const linkReads = statement!.plan.split('\n').filter((line) => /contact_inboxes/.test(line));
    expect(linkReads).toEqual([expect.stringMatching(/Index Scan using contact_inboxes_inbox_source_uq/)]);
    expect(statement!.plan).toMatch(/Index Cond: \(\(inbox_id = \$\d+\) AND \(source_id = /);
  });

  it("a chunk's counters lock and update their automations by id, not the workspace's 1,000", async () => {
    const ws = (await t.workspace()).id;
    const first = await fixtures(t.db, ws).commentAutomation('photo', 'one');
    await sql`insert into comment_automations (workspace_id, channel, folder_id, name, type, is_active, start_time, end_time, post, private_reply, public_reply, include_keywords, exclude_keywords, options, hide_comments, reply_after, created_at, updated_at)
      select workspace_id, channel, folder_id, name || g, type, is_active, start_time, end_time, post, private_reply, public_reply, include_keywords, exclude_keywords, options, hide_comments, reply_after, created_at, updated_at
      from comment_automations, generate_series(1, 999) as g where id = ${first}`.execute(t.db);
    const ids = Array.from({ length: 10 }, (_, i) => first + i * 7);
    const statements = await recording.statementsOf(async () => {
      await lockCommentAutomations(recording.db, ws, ids);
      await addCounts(recording.db, ws, ids, { sent_count: 1, delivered_count: 1 });
    });
    expect(statements.map((s) => /comment_automations_pkey/.test(s.plan) && !/comment_automations_workspace/.test(s.plan))).toEqual([true, true]);
  });
});
