import type { Executor } from '../db/database.js';
import { listChannelPosts } from '../domain/channel-posts/channel-post.repository.js';
import { recordOutboxEntry } from '../domain/outbox/outbox.service.js';
import { latestThreadControlEntry } from '../domain/outbox/outbox.repository.js';
import type { OutboxAction, ThreadControlRequest } from '../domain/outbox/outbox.schema.js';
import { findSandboxRecord } from '../domain/sandbox/sandbox-record.repository.js';
import type { ActionResult, AdapterCall, ActionOrigin, ChannelAdapter, CommentCall, Lead, Profile } from '../domain/channels/channel-adapter.js';
import { ChannelError } from '../domain/channels/channel-error.js';

const DEFAULT_POSTS = 25;
/** CHANNEL_APP_ID's and HANDOVER_TARGET_APP_ID's defaults (src/config/config.ts). */
export const DEFAULT_APP_ID = 'messaging-api';
export const DEFAULT_HANDOVER_APP_ID = 'page-inbox';

const notFound = (what: string, id: string) => new ChannelError({ reason: 'notFound', httpCode: null, providerMessage: `The sandbox has no ${what} ${id} in this workspace` });

/**
 * The default adapter: calls no network. Every outgoing action becomes one outbox entry (GET
 * /v1/outbox shows them), and its result names that entry (`outbox:<id>`) for sends; likes, hides
 * and unhides create nothing on a network, so they answer null, as the Graph API adapter does.
 * Fetches answer from what the workspace has: posts from `channel_posts` (the inbox's, newest
 * first), leads and profiles from `sandbox_records` (filled by dev events); an unknown one is
 * ChannelError notFound. Thread control plays a network that does as it is told: a handover call is
 * an outbox entry (`threadControl`, with the call as asked), and a thread's owner is what the
 * person's latest such entry made it (a take: our app; a pass: its target; a release: the
 * handover app), our app when there is none.
 */
export function sandboxAdapter(db: Executor, apps: Partial<Pick<ChannelAdapter, 'appId' | 'handoverAppId'>> = {}): ChannelAdapter {
  const appId = apps.appId ?? DEFAULT_APP_ID;
  const handoverAppId = apps.handoverAppId ?? DEFAULT_HANDOVER_APP_ID;
  const record = async (
    call: AdapterCall & ActionOrigin,
    action: OutboxAction,
    targets: { commentId?: string; postId?: string | null; recipientId?: string },
    payload = null as Parameters<typeof recordOutboxEntry>[2]['payload'],
    threadControl: ThreadControlRequest | null = null,
  ) =>
    recordOutboxEntry(db, call.workspaceId, {
      inboxId: call.inbox.id,
      channel: call.inbox.channel,
      action,
      ...targets,
      contactId: call.contactId ?? null,
      automation: call.automation ?? null,
      payload,
      threadControl,
      dedupeKey: call.idempotencyKey ?? null,
    });
  const comment = (call: CommentCall) => ({ commentId: call.commentId, postId: call.postId ?? null });
  const sent = async (entry: Promise<{ id: string }>): Promise<ActionResult> => ({ externalId: `outbox:${(await entry).id}` });
  const done = async (entry: Promise<unknown>): Promise<ActionResult> => {
    await entry;
    return { externalId: null };
  };

  return {
    name: 'sandbox',
    appId,
    handoverAppId,
    joinTransaction: (trx) => sandboxAdapter(trx, { appId, handoverAppId }),
    sendPrivateReply: (call) => sent(record(call, 'privateReply', comment(call), call.content)),
    sendPublicReply: (call) => sent(record(call, 'publicReply', comment(call), call.content)),
    sendMessage: (call) => sent(record(call, 'message', { recipientId: call.recipientId }, call.content)),
    likeComment: (call) => done(record(call, 'like', comment(call))),
    hideComment: (call) => done(record(call, 'hide', comment(call))),
    unhideComment: (call) => done(record(call, 'unhide', comment(call))),
    async fetchLead({ workspaceId, leadId }) {
      const lead = await findSandboxRecord<Omit<Lead, 'id'>>(db, workspaceId, 'lead', leadId);
      if (!lead) throw notFound('lead', leadId);
      return { ...lead, id: leadId };
    },
    async fetchProfile({ workspaceId, userId }) {
      const profile = await findSandboxRecord<Omit<Profile, 'id'>>(db, workspaceId, 'profile', userId);
      if (!profile) throw notFound('profile', userId);
      return { ...profile, id: userId };
    },
    async fetchPosts({ workspaceId, inbox, limit }) {
      const posts = await listChannelPosts(db, workspaceId, inbox.channel, { inboxId: String(inbox.id) }, { limit: limit ?? DEFAULT_POSTS, offset: 0 });
      return posts.map(({ inboxId: _inbox, ...post }) => post);
    },
    controlThread: (call) => done(record(call, 'threadControl', { recipientId: call.recipientId }, null, call.request)),
    async fetchThreadOwner({ workspaceId, inbox, recipientId }) {
      const last = await latestThreadControlEntry(db, workspaceId, inbox.id, recipientId);
      if (!last?.threadControl || last.threadControl.action === 'take') return { appId };
      return { appId: last.threadControl.targetAppId ?? handoverAppId };
    },
  };
}
