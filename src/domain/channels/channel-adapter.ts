import type { Executor } from '../../db/database.js';
import type { Channel } from '../comment-automations/comment-automation.schema.js';
import type { PostKind } from '../channel-posts/channel-post.schema.js';
import type { AutomationKind, OutgoingContent, ThreadControlRequest } from '../outbox/outbox.schema.js';

export type { OutgoingContent, ThreadControlRequest };

/**
 * The one boundary between the engine and the networks (photo: the photo-sharing network; net: the
 * social network). Every call names the workspace, the inbox it acts through (its channel and the
 * network's id of the connected account, `sourceId`) and the network's ids it acts on. A call
 * answers what the network created (its id), or throws `ChannelError` (src/domain/channels/channel-error.ts)
 * and nothing else. Implementations: the sandbox adapter (records in the outbox, the default) and
 * the Graph API adapter (HTTP). Callers never run an adapter call inside a database transaction.
 */
export interface AdapterInbox {
  id: number;
  channel: Channel;
  /** The network's id of the connected account (photo account or page). */
  sourceId: string;
}

export interface AdapterCall {
  workspaceId: number;
  inbox: AdapterInbox;
}

/** Who and what an action is for, when known: the sandbox records it; networks ignore it. */
export interface ActionOrigin {
  contactId?: number | null;
  automation?: { kind: AutomationKind; id: number } | null;
  /** The same action retried (a job run again) carries the same key: the sandbox records it once. Networks ignore it. */
  idempotencyKey?: string;
}

export interface CommentCall extends AdapterCall, ActionOrigin {
  /** The network's comment id. */
  commentId: string;
  /** The network's id of the comment's post or medium, when known. */
  postId?: string | null;
}

export interface ReplyCall extends CommentCall {
  content: OutgoingContent;
}

export interface MessageCall extends AdapterCall, ActionOrigin {
  /** The network's id of the person (page- or account-scoped user id). */
  recipientId: string;
  content: OutgoingContent;
}

/** A thread-control (handover) call for one person's thread with the account (ThreadControlRequest says which). */
export interface ThreadControlCall extends AdapterCall, ActionOrigin {
  /** The network's id of the person whose thread it is. */
  recipientId: string;
  request: ThreadControlRequest;
}

/** Which app holds a person's thread, as the network says: null when none does (the primary receiver, us, gets the messages). */
export interface ThreadOwner {
  appId: string | null;
}

/** What a call created on the network: its id (message or comment id), or null when it creates nothing (like, hide). */
export interface ActionResult {
  externalId: string | null;
}

/** A lead-ad form submission, as the network keeps it. */
export interface Lead {
  id: string;
  createdAt: string;
  formId: string | null;
  adId: string | null;
  /** Each answer by its question key; multiple-choice questions may hold several values. */
  fields: { name: string; values: string[] }[];
}

/** A person as the network shows them to the connected account. */
export interface Profile {
  id: string;
  firstName: string | null;
  lastName: string | null;
  /** The full display name, when the network gives one. */
  name: string | null;
  username: string | null;
  avatarUrl: string | null;
}

/** A medium (photo) or post (net) of the connected account, in channel_posts' shape. */
export interface AdapterPost {
  id: string;
  caption: string | null;
  mediaType: string;
  kind: PostKind;
  permalink: string | null;
  thumbnailUrl: string | null;
  timestamp: string;
}

export interface ChannelAdapter {
  readonly name: 'sandbox' | 'http';
  /** Our app's id on the networks (CHANNEL_APP_ID): a thread whose owner is this app is ours. */
  readonly appId: string;
  /** The app a pass without a target, or a release, hands a thread to (HANDOVER_TARGET_APP_ID). */
  readonly handoverAppId: string;
  /**
   * Only an adapter whose calls read and write our own database (the sandbox) has this: the same
   * adapter inside the caller's transaction, so a recorded action and its outbox entry commit
   * together. A network adapter must never be called inside a transaction.
   */
  joinTransaction?(trx: Executor): ChannelAdapter;
  /** A direct message to a comment's author, tied to the comment (one per comment, within 7 days: the engine checks). */
  sendPrivateReply(call: ReplyCall): Promise<ActionResult>;
  /** A comment under the comment. */
  sendPublicReply(call: ReplyCall): Promise<ActionResult>;
  /** A message to a contact in a conversation (the messaging-window rule is the engine's). */
  sendMessage(call: MessageCall): Promise<ActionResult>;
  likeComment(call: CommentCall): Promise<ActionResult>;
  hideComment(call: CommentCall): Promise<ActionResult>;
  unhideComment(call: CommentCall): Promise<ActionResult>;
  fetchLead(call: AdapterCall & { leadId: string }): Promise<Lead>;
  fetchProfile(call: AdapterCall & { userId: string }): Promise<Profile>;
  /** The account's latest media or posts, newest first, at most `limit` (default 25). */
  fetchPosts(call: AdapterCall & { limit?: number }): Promise<AdapterPost[]>;
  /** Takes, passes or releases a person's thread (the networks' handover protocol); creates nothing (externalId null). */
  controlThread(call: ThreadControlCall): Promise<ActionResult>;
  /** Which app holds a person's thread now. */
  fetchThreadOwner(call: AdapterCall & { recipientId: string }): Promise<ThreadOwner>;
}
