import { Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../src/db/types.js';
import { listCommentAutomations, listCommentAutomationsPage } from '../src/domain/comment-automations/comment-automation.repository.js';
import { listChannelPosts } from '../src/domain/channel-posts/channel-post.repository.js';
import { conversationWindow } from '../src/domain/conversations/conversation.repository.js';
import { countDynamicImages, listDynamicImages } from '../src/domain/dynamic-images/dynamic-image.repository.js';
import { listLeadAdAutomations } from '../src/domain/lead-ads/lead-ad.repository.js';
import { listTags } from '../src/domain/tags/tag.repository.js';
import { freshDatabaseUrl, testEngine, type TestDatabaseUrl } from './support/engine.js';
import { openRecordingHandle, type RecordingHandle } from './support/query-plans.js';

/**
 * Every list the API pages through is read in its order from an index, so a page reads only its
 * rows instead of sorting the workspace's. Checked on the SQL our repositories really send, each
 * statement captured as it runs and handed back to the engine's planner. SQLite has no statistics,
 * as a database made by `npm start` or the CLI seed; PostgreSQL has them and is told not to scan
 * tables, so a plan that still sorts means no index can give the order.
 */
describe(`list order indexes on ${testEngine}`, () => {
  let target: TestDatabaseUrl;
  let recording: RecordingHandle;
  let db: Kysely<DB>;

  beforeAll(async () => {
    target = await freshDatabaseUrl();
    recording = await openRecordingHandle(target.url, { migrate: true, forbidSeqScans: true });
    db = recording.db;

    // The workspace listed (2) holds one row in fifty of each table, among a large workspace's (1)
    // and another small one's (3), interleaved by id as when they are created over time.
    const workspaceOf = (n: number) => (n % 50 === 0 ? 2 : n % 50 === 1 ? 3 : 1);
    const at = (n: number) => new Date(Date.UTC(2026, 0, 1) + ((n * 7919) % 5000) * 60_000).toISOString();
    const rows = <T>(count: number, row: (workspaceId: number, n: number) => T) => Array.from({ length: count }, (_, n) => row(workspaceOf(n), n));
    /** Inserts in statements of 500 rows: both engines cap the parameters of one statement. */
    const insert = async (
      table: 'workspaces' | 'contacts' | 'conversations' | 'comment_automations' | 'lead_ad_automations' | 'tags' | 'dynamic_images' | 'inboxes' | 'channel_posts',
      values: object[],
    ) => {
      for (let i = 0; i < values.length; i += 500) await db.insertInto(table).values(values.slice(i, i + 500) as never).execute();
    };
    const stamps = (n: number) => ({ created_at: at(n), updated_at: at(n) });
    const json = (v: unknown) => JSON.stringify(v);
    await insert('workspaces', [1, 2, 3].map((n) => ({ name: `W${n}`, development_mode: 0, ...stamps(n) })));
    await insert('contacts', rows(1000, (w, n) => ({ workspace_id: w, email: `p${n}@example.com`, gender: 'unknown', email_verified: 0, email_opt_in: 0, ...stamps(n) })));
    // Conversation n's contact (id n % 1000 + 1) is contact n % 1000, of the same workspace.
    await insert(
      'conversations',
      rows(10_000, (w, n) => ({
        workspace_id: w, contact_id: 1 + (n % 1000), bot_enabled: 1, followed: n % 4 ? 1 : 0, additional_attributes: '{}', last_activity_at: at(n), ...stamps(n),
      })),
    );
    await insert(
      'comment_automations',
      rows(5000, (w, n) => ({
        workspace_id: w, channel: n % 3 ? 'photo' : 'net', name: `Automation ${n}`, type: 'photo', is_active: 1,
        post: json({ type: 'all', value: [] }), private_reply: json({}), public_reply: json({}), include_keywords: json({}), exclude_keywords: '[]',
        options: json({}), hide_comments: json({}), reply_after: json({}), ...stamps(n),
      })),
    );
    await insert('lead_ad_automations', rows(3000, (w, n) => ({ workspace_id: w, name: `Lead ad ${n}`, form_ids: '[]', is_active: 1, reply: json({}), ...stamps(n) })));
    await insert('tags', rows(3000, (w, n) => ({ workspace_id: w, name: `Tag ${(n * 37) % 3000}`, deleted_at: n % 7 ? null : at(n), ...stamps(n) })));
    await insert('dynamic_images', rows(3000, (w, n) => ({ workspace_id: w, name: `Image ${n}`, custom_field_id: null, background_url: '', image_url: '', data: '{"width":100,"height":100,"elements":[]}', enabled: 1, ...stamps(n) })));
    await insert('inboxes', [1, 2, 3].map((w) => ({ workspace_id: w, name: `Inbox ${w}`, channel: 'photo', source_id: null, status: 'active', ...stamps(w) })));
    await insert(
      'channel_posts',
      rows(5000, (w, n) => ({
        workspace_id: w, inbox_id: w, channel: n % 3 ? 'photo' : 'net', external_id: `p${n}`, caption: null, media_type: 'IMAGE',
        kind: (['published', 'ads', 'reels'] as const)[n % 3], permalink: null, thumbnail_url: null, posted_at: at(n), ...stamps(n),
      })),
    );
    if (testEngine === 'postgres') await sql`vacuum analyze`.execute(db);
  });
  afterAll(async () => {
    await recording?.close();
    await target.drop();
  });

  /** The plan reads the table through `index`, in the index's order (no sort step). */
  const inIndexOrder = (plan: string, index: string) =>
    testEngine === 'postgres'
      ? new RegExp(`Index (Only )?Scan (Backward )?using ${index} on`).test(plan) && !/\bSort\b/.test(plan) && !/Seq Scan/.test(plan)
      : new RegExp(`^SEARCH \\w+ USING (COVERING )?INDEX ${index} \\(`).test(plan) && !plan.includes('TEMP B-TREE');

  it('pages conversations by last activity, then id, from (workspace_id, last_activity_at, id), both ways, with and without a cursor or filter', async () => {
    const plans = await recording.plansOf(async () => {
      const page = await conversationWindow(db, 2, {}, { direction: 'older', limit: 21 });
      const from = { at: page[20].lastActivityAt!, id: Number(page[20].id) };
      await conversationWindow(db, 2, {}, { direction: 'older', limit: 21, from });
      await conversationWindow(db, 2, { followed: false }, { direction: 'older', limit: 21, from });
      await conversationWindow(db, 2, {}, { direction: 'newer', limit: 21, from });
    });
    expect(plans).toHaveLength(4);
    for (const plan of plans) expect(inIndexOrder(plan, 'conversations_workspace_activity_id_idx'), plan).toBe(true);
  });

  it('pages comment automations newest first by id, of one channel or both, from an index in that order', async () => {
    const plans = await recording.plansOf(async () => {
      const photo = await listCommentAutomations(db, 2, { limit: 21, channel: 'photo' });
      await listCommentAutomations(db, 2, { limit: 21, channel: 'net', beforeId: Number(photo[20].id) });
      const all = await listCommentAutomations(db, 2, { limit: 21 });
      await listCommentAutomations(db, 2, { limit: 21, beforeId: Number(all[20].id) });
    });
    expect(plans).toHaveLength(4);
    for (const plan of plans.slice(0, 2)) expect(inIndexOrder(plan, 'comment_automations_workspace_channel_id_idx'), plan).toBe(true);
    for (const plan of plans.slice(2)) expect(inIndexOrder(plan, 'comment_automations_workspace_id_idx'), plan).toBe(true);
  });

  it('pages a channel\'s comment automations on REST newest first from (workspace_id, channel, created_at, id), with and without a filter', async () => {
    const plans = await recording.plansOf(async () => {
      await listCommentAutomationsPage(db, 2, 'photo', {}, { limit: 20, offset: 20 });
      await listCommentAutomationsPage(db, 2, 'net', { isActive: true }, { limit: 20, offset: 0 });
    });
    expect(plans).toHaveLength(2);
    for (const plan of plans) expect(inIndexOrder(plan, 'comment_automations_workspace_channel_created_idx'), plan).toBe(true);
  });

  it('pages a channel\'s posts newest first from (workspace_id, channel, posted_at, id), with and without an inbox or kind filter', async () => {
    const plans = await recording.plansOf(async () => {
      await listChannelPosts(db, 2, 'photo', {}, { limit: 20, offset: 20 });
      await listChannelPosts(db, 2, 'net', { inboxId: '2', kind: 'published' }, { limit: 20, offset: 0 });
    });
    expect(plans).toHaveLength(2);
    expect(inIndexOrder(plans[0], 'channel_posts_workspace_posted_idx'), plans[0]).toBe(true);
    // An inbox filter: SQLite walks the same order; PostgreSQL may AND it with the inbox's index
    // (channel_posts_inbox_idx), which holds only that inbox's posts, and sort those few.
    if (testEngine === 'sqlite') expect(inIndexOrder(plans[1], 'channel_posts_workspace_posted_idx'), plans[1]).toBe(true);
    else expect(plans[1]).toMatch(/Index Scan on channel_posts_workspace_posted_idx/);
  });

  // Tags are listed whole (no pages): every row of the workspace is read and returned either way,
  // so sorting them costs no more than reading them in order would. Lead-ad automations are paged
  // newest first from (workspace_id, created_at); ties by id are sorted within equal instants.
  it("lists lead-ad automations and tags from the workspace's rows only", async () => {
    const plans = await recording.plansOf(async () => {
      await listLeadAdAutomations(db, 2, { limit: 20, offset: 0 });
      await listTags(db, 2);
    });
    expect(plans).toHaveLength(2);
    // Tags: the live-name index (workspace_id, lower(name)) where deleted_at is null serves both the
    // filter and the order; an engine may still pick the plain (workspace_id, name) index.
    const index = ['lead_ad_automations_workspace_idx', '(?:tags_workspace_live_lower_name_uq|tags_workspace_name_idx)'];
    plans.forEach((plan, i) =>
      expect(
        testEngine === 'postgres'
          ? new RegExp(`Index (Only )?Scan (Backward )?using ${index[i]} on|Bitmap Index Scan on ${index[i]}\\b`).test(plan) && !/Seq Scan/.test(plan)
          : new RegExp(`^SEARCH \\w+ USING INDEX ${index[i]} \\(workspace_id=\\?\\)`).test(plan),
        plan,
      ).toBe(true),
    );
  });

  it('pages dynamic images newest first from (workspace_id, created_at, id), with and without a name filter', async () => {
    const plans = await recording.plansOf(async () => {
      await listDynamicImages(db, 2, { limit: 20, offset: 0 });
      await listDynamicImages(db, 2, { limit: 20, offset: 20, name: 'image 1' });
      await countDynamicImages(db, 2);
      await countDynamicImages(db, 2, 'image 1');
    });
    expect(plans).toHaveLength(4);
    expect(inIndexOrder(plans[0], 'dynamic_images_workspace_created_idx'), plans[0]).toBe(true);
    // A name filter: SQLite walks the same order and tests each name; PostgreSQL reads the
    // workspace's trigram lists of the names (dynamic_images_search_tokens_idx) and sorts them.
    if (testEngine === 'sqlite') expect(inIndexOrder(plans[1], 'dynamic_images_workspace_created_idx'), plans[1]).toBe(true);
    else expect(plans[1]).not.toContain('Seq Scan');
    for (const plan of plans.slice(2)) expect(plan).toMatch(testEngine === 'postgres' ? /dynamic_images_(workspace_created|search_tokens)_idx/ : /^SEARCH dynamic_images USING (COVERING )?INDEX dynamic_images_workspace_created_idx \(workspace_id=\?\)/);
  });
});
