import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngine } from './support/engine.js';
import { createEngineTestApp, type EngineTestApp } from './support/engine-app.js';
import { sampleHideComments, sampleOptions, T0 } from './support/fixtures.js';
import type { TestWorkspace } from './support/harness.js';

const INT32_MAX = 2_147_483_647;

/**
 * Counters under concurrency: many comments answered at once by two runners sharing the queue (on
 * PostgreSQL, two graphile-worker runners, as two worker processes would be) end with exact
 * counts, because every counter is updated by one SQL statement, never read and written back; and
 * no counter ever passes the contract's int32 bound.
 */
describe(`automation counters under concurrency on ${testEngine}`, () => {
  let t: EngineTestApp;
  let ws: TestWorkspace;
  let automationId: string;

  const comments = (prefix: string, n: number, text = 'price please') => ({
    object: 'instagram',
    entry: [
      {
        id: 'acct-counters',
        changes: Array.from({ length: n }, (_, i) => ({ field: 'comments', value: { id: `${prefix}-${i}`, text, from: { id: `${prefix}-user-${i}`, username: `user${i}` }, media: { id: `m-${i % 3}` } } })),
      },
    ],
  });
  const counters = async () => {
    const res = await t.request('GET', `/v1/photo-comments/${automationId}`, { token: ws.developerToken });
    expect(res.status).toBe(200);
    const a = res.body.data ?? res.body;
    return { replies: a.repliesCount, sent: a.sentCount, delivered: a.deliveredCount, failed: a.failedCount, missed: a.missedCount };
  };

  beforeAll(async () => {
    t = await createEngineTestApp();
    await t.extraRunner();
    ws = await t.workspace();
    await t.db.insertInto('inboxes').values({ workspace_id: ws.id, name: 'Photo', channel: 'photo', source_id: 'acct-counters', status: 'active', created_at: T0, updated_at: T0 }).execute();
    const res = await t.request('POST', '/v1/photo-comments', {
      token: ws.developerToken,
      body: {
        name: 'Prices',
        type: 'photo',
        post: { type: 'all', value: [] },
        privateReply: { type: 'text', value: 'Hi {{first_name}}, prices in your DMs' },
        publicReply: { type: 'text', value: 'Sent you a DM' },
        includeKeywords: { type: 'contain', value: ['price'] },
        excludeKeywords: [],
        options: { ...sampleOptions, replyOncePerUserPerPost: false, ignoreCommentReplies: false },
        hideComments: { ...sampleHideComments },
        replyAfter: { type: 'immediately', value: 0 },
      },
    });
    expect(res.status).toBe(201);
    automationId = (res.body.data ?? res.body).id;
  });
  afterAll(() => t?.close());

  it('60 comments answered at once by two runners: exact counts, one private and one public reply each', async () => {
    const res = await t.webhook('photo', comments('burst', 60));
    expect(res.body).toMatchObject({ stored: 60 });
    await t.settle(60_000);
    expect(await counters()).toEqual({ replies: 60, sent: 120, delivered: 120, failed: 0, missed: 0 });
    const outbox = await t.db.selectFrom('outbox').select(['action', 'comment_id']).where('workspace_id', '=', ws.id).where('comment_id', 'like', 'burst-%').execute();
    expect(outbox.filter((o) => o.action === 'privateReply')).toHaveLength(60);
    expect(outbox.filter((o) => o.action === 'publicReply')).toHaveLength(60);
    expect(new Set(outbox.map((o) => `${o.action}:${o.comment_id}`)).size).toBe(120);
  });

  it('never passes the int32 bound, however many comments come at once', async () => {
    await t.db
      .updateTable('comment_automations')
      .set({ replies_count: INT32_MAX - 2, sent_count: INT32_MAX - 1, delivered_count: INT32_MAX, missed_count: INT32_MAX })
      .where('id', '=', Number(automationId))
      .execute();
    await t.webhook('photo', comments('bound', 10));
    await t.webhook('photo', comments('bound-missed', 5, 'nothing to see'));
    await t.settle(60_000);
    const c = await counters();
    expect([c.replies, c.sent, c.delivered]).toEqual([INT32_MAX, INT32_MAX, INT32_MAX]);
    expect(c.missed).toBe(INT32_MAX);
  });
});
