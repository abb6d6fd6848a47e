import { expect } from 'vitest';
import type { EngineTestApp } from './engine-app.js';
import { sampleHideComments, T0 } from './fixtures.js';
import type { TestWorkspace } from './harness.js';

/**
 * The comment engine's tests: a workspace with a photo and a net inbox on accounts of its own,
 * automations created through the API, signed comment webhooks shaped as the networks send them,
 * and what the engine did read back through the API (outbox, automation counters, events).
 */

let serial = 0;
export const unique = () => `${process.pid}${Date.now() % 100000}${++serial}`;

export interface CommentWorld {
  ws: TestWorkspace;
  photo: { inboxId: number; account: string };
  net: { inboxId: number; account: string };
}

export async function insertInbox(t: EngineTestApp, workspaceId: number, channel: 'photo' | 'net', sourceId: string): Promise<number> {
  const row = await t.db
    .insertInto('inboxes')
    .values({ workspace_id: workspaceId, name: `${channel} ${sourceId}`, channel, source_id: sourceId, status: 'active', created_at: T0, updated_at: T0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A fresh workspace (its own accounts, so no other test's webhooks reach it), optionally with a timezone and a MAC limit. */
export async function commentWorld(t: EngineTestApp, opts: { timezone?: string; macLimit?: number; accounts?: { photo: string; net: string } } = {}): Promise<CommentWorld> {
  const ws = await t.workspace({ macLimit: opts.macLimit ?? null });
  if (opts.timezone) await t.db.updateTable('workspaces').set({ timezone: opts.timezone }).where('id', '=', ws.id).execute();
  const photo = opts.accounts?.photo ?? `1784${unique()}`;
  const net = opts.accounts?.net ?? `1020${unique()}`;
  return {
    ws,
    photo: { inboxId: await insertInbox(t, ws.id, 'photo', photo), account: photo },
    net: { inboxId: await insertInbox(t, ws.id, 'net', net), account: net },
  };
}

export const noOptions = {
  replyToNewContactsOnly: false,
  replyOncePerUserPerPost: false,
  likeUserComment: false,
  replyToUsersWhoCommentedOnOtherPosts: true,
  ignoreCommentReplies: false,
  trackUserTags: false,
};

/** A create body that answers every comment at once with a private "Thanks!" and nothing else; `extra` replaces fields (options merged). */
export function automationBody(channel: 'photo' | 'net', extra: Record<string, any> = {}) {
  const { options, hideComments, ...rest } = extra;
  return {
    name: `Rule ${unique()}`,
    type: channel === 'photo' ? 'photo' : 'chat',
    post: { type: 'all', value: [] },
    privateReply: { type: 'text', value: 'Thanks!' },
    publicReply: { type: 'none', value: null },
    includeKeywords: { type: 'all', value: [] },
    excludeKeywords: [],
    options: { ...noOptions, ...options },
    hideComments: { ...sampleHideComments, ...hideComments },
    replyAfter: { type: 'immediately', value: 0 },
    ...rest,
  };
}

export const path = (channel: 'photo' | 'net') => (channel === 'photo' ? '/v1/photo-comments' : '/v1/net-comments');

/** Creates an automation through the API; answers its id. */
export async function createAutomation(t: EngineTestApp, ws: TestWorkspace, channel: 'photo' | 'net', extra: Record<string, any> = {}): Promise<string> {
  const res = await t.request('POST', path(channel), { token: ws.developerToken, body: automationBody(channel, extra) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

export interface PhotoComment {
  id: string;
  text?: string;
  from?: string;
  username?: string;
  media?: string | null;
  productType?: string;
  parentId?: string;
  attachments?: { type: string; payload?: { url?: string } }[];
  createdAt?: Date;
}

const unix = (d: Date) => Math.floor(d.getTime() / 1000);

/** A photo-network comments webhook body of one or more comments on `account`. */
export function photoWebhook(account: string, ...comments: PhotoComment[]) {
  return {
    object: 'instagram',
    entry: [
      {
        id: account,
        time: unix(new Date()),
        changes: comments.map((c) => ({
          field: 'comments',
          value: {
            id: c.id,
            text: c.text ?? 'Hello',
            from: { id: c.from ?? 'user-1', username: c.username ?? 'ada' },
            ...(c.media === null ? {} : { media: { id: c.media ?? 'media-1', ...(c.productType ? { media_product_type: c.productType } : {}) } }),
            ...(c.parentId ? { parent_id: c.parentId } : {}),
            ...(c.attachments ? { attachments: c.attachments } : {}),
            ...(c.createdAt ? { created_time: unix(c.createdAt) } : {}),
          },
        })),
      },
    ],
  };
}

export interface NetComment {
  id: string;
  text?: string;
  from?: string;
  name?: string;
  postId?: string;
  parentId?: string;
  photo?: string;
  video?: string;
  link?: string;
  createdAt?: Date;
}

/** A social-network feed webhook body of one or more new comments on `page` (post ids `pageId_postId`). */
export function netWebhook(page: string, ...comments: NetComment[]) {
  return {
    object: 'page',
    entry: [
      {
        id: page,
        time: unix(new Date()),
        changes: comments.map((c) => {
          const postId = c.postId ?? `${page}_9001`;
          return {
            field: 'feed',
            value: {
              item: 'comment',
              verb: 'add',
              comment_id: c.id,
              post_id: postId,
              parent_id: c.parentId ?? postId,
              message: c.text ?? 'Hello',
              from: { id: c.from ?? 'user-1', name: c.name ?? 'Ada Lovelace' },
              ...(c.photo ? { photo: c.photo } : {}),
              ...(c.video ? { video: c.video } : {}),
              ...(c.link ? { link: c.link } : {}),
              ...(c.createdAt ? { created_time: unix(c.createdAt) } : {}),
            },
          };
        }),
      },
    ],
  };
}

/** Posts a signed webhook (200 expected) and waits until the queue has nothing due. */
export async function deliver(t: EngineTestApp, channel: 'photo' | 'net', body: unknown): Promise<void> {
  const res = await t.webhook(channel, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await t.settle();
}

/** The workspace's outbox entries (GET /v1/outbox, all of them: at most 50 in these tests), oldest first. */
export async function outbox(t: EngineTestApp, ws: TestWorkspace, query = ''): Promise<any[]> {
  const res = await t.request('GET', `/v1/outbox?perPage=50${query ? `&${query}` : ''}`, { token: ws.developerToken });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return [...res.body.data].reverse();
}

/** Outbox entries as `action comment text` lines, oldest first: compact to compare whole. */
export async function outboxLines(t: EngineTestApp, ws: TestWorkspace, query = ''): Promise<string[]> {
  return (await outbox(t, ws, query)).map((e) => [e.action, e.commentId, e.payload?.text ?? e.payload?.flowId ?? e.payload?.agentId].filter((x) => x != null).join(' '));
}

export async function getAutomation(t: EngineTestApp, ws: TestWorkspace, channel: 'photo' | 'net', id: string): Promise<any> {
  const res = await t.request('GET', `${path(channel)}/${id}`, { token: ws.developerToken });
  expect(res.status).toBe(200);
  return res.body;
}

/** The counters of an automation, as the API shows them. */
export async function counters(t: EngineTestApp, ws: TestWorkspace, channel: 'photo' | 'net', id: string) {
  const a = await getAutomation(t, ws, channel, id);
  return { repliesCount: a.repliesCount, sentCount: a.sentCount, deliveredCount: a.deliveredCount, failedCount: a.failedCount, missedCount: a.missedCount };
}

/** The automation's events (GET .../events), newest first. */
export async function events(t: EngineTestApp, ws: TestWorkspace, channel: 'photo' | 'net', id: string): Promise<any[]> {
  const res = await t.request('GET', `${path(channel)}/${id}/events?perPage=50`, { token: ws.developerToken });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** `commentId outcome reason` of each event, oldest first. */
export async function eventLines(t: EngineTestApp, ws: TestWorkspace, channel: 'photo' | 'net', id: string): Promise<string[]> {
  return (await events(t, ws, channel, id)).reverse().map((e) => [e.commentId, e.outcome, e.reason].filter((x) => x != null).join(' '));
}

/** Today (UTC) at HH:mm, for comments whose time matters (schedules); a minute in the future is moved to yesterday. */
export function todayAt(hhmm: string, now = new Date()): Date {
  const [h, m] = hhmm.split(':').map(Number);
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), h, m));
  return d.getTime() > now.getTime() ? new Date(d.getTime() - 24 * 3_600_000) : d;
}

/** A contact already linked to the author `sourceId` in the inbox (as an earlier event would have linked it); answers its id. */
export async function linkedContact(t: EngineTestApp, workspaceId: number, inboxId: number, channel: 'photo' | 'net', sourceId: string, c: { firstName?: string | null; lastName?: string | null; blocked?: boolean; createdAt?: string } = {}): Promise<number> {
  const now = new Date().toISOString();
  const contact = await t.db
    .insertInto('contacts')
    .values({
      workspace_id: workspaceId,
      first_name: c.firstName ?? null,
      last_name: c.lastName ?? null,
      gender: 'unknown',
      email_verified: 0,
      email_opt_in: 0,
      blocked_at: c.blocked ? now : null,
      created_at: c.createdAt ?? now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await t.db.insertInto('contact_inboxes').values({ workspace_id: workspaceId, contact_id: contact.id, inbox_id: inboxId, channel, source_id: sourceId, created_at: now }).execute();
  return contact.id;
}

/** The delayed jobs of a task, with their due time in ms. */
export async function delayedJobs(t: EngineTestApp, task: string): Promise<{ commentEventId: number; runAt: number }[]> {
  return (await t.jobs()).filter((j) => j.task === task && !j.failed).map((j) => ({ commentEventId: (j.payload as any).commentEventId, runAt: new Date(j.runAt).getTime() }));
}
