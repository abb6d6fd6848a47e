import { inTransaction, type Executor } from '../../db/database.js';
import { idNumber, nowIso } from '../../db/values.js';
import { AppError, notFound } from '../../errors/catalogue.js';
import type { Logger } from '../../observability/logger.js';
import type { ChannelAdapter, ThreadControlRequest } from '../channels/channel-adapter.js';
import { isChannelError, type ChannelError } from '../channels/channel-error.js';
import type { Channel } from '../comment-automations/comment-automation.schema.js';
import { getConversation } from '../conversations/conversation.service.js';
import { insertErrorLog } from '../error-logs/error-log.repository.js';
import {
  contactInboxIdBySource,
  findStoredThread,
  findThreadTarget,
  saveStoredThread,
  standbyHolds,
  threadInStandby,
  type StoredThread,
  type ThreadTarget,
} from './thread-state.repository.js';
import {
  THREAD_IDLE_HOURS,
  type StoredThreadState,
  type SyncThreadOwnerInput,
  type ThreadControlInput,
  type ThreadControlResult,
  type ThreadEvent,
  type ThreadEventSource,
  type ThreadState,
} from './thread-state.schema.js';

const HOUR_MS = 3_600_000;

// ---- The rules (pure) ----

/**
 * Something that may move a thread:
 * - `handover`: a network's explicit handover (pass or take thread control). It wins over one of our
 *   calls made in the same second (the networks' word on who holds the thread is final), and
 *   otherwise over anything not later than itself: events arrive out of order, their times decide.
 * - `evidence`: a message that proves who holds the thread (a standby message: another app; a plain
 *   message: us, the networks deliver `messaging` to the owner only). It moves the thread only when
 *   strictly later than the last transition, and when the thread is not that way already.
 * - `call`: ours (take, pass, release, sync), made now: it always applies.
 * - `note`: changes no hands (another app's request for the thread): recorded as the last event.
 * `userMessageAt`: the person wrote at that time (a message, standby or not).
 */
export interface ThreadChange {
  kind: 'handover' | 'evidence' | 'call' | 'note';
  state?: StoredThreadState;
  ownerAppId?: string | null;
  at: string;
  event: ThreadEvent;
  source: ThreadEventSource;
  userMessageAt?: string | null;
}

const later = (a: string | null, b: string | null | undefined): string | null => (b == null ? a : a === null || Date.parse(b) > Date.parse(a) ? b : a);

/** When a thread goes idle: 24 hours after the later of the last transition and the person's last message. */
const expiryOf = (transitionedAt: string, lastUserMessageAt: string | null) =>
  new Date(Math.max(Date.parse(transitionedAt), lastUserMessageAt === null ? 0 : Date.parse(lastUserMessageAt)) + THREAD_IDLE_HOURS * HOUR_MS).toISOString();

const secondOf = (iso: string) => Math.floor(Date.parse(iso) / 1000) * 1000;

/** Whether the change, if it moves hands, comes after the row's last transition (see ThreadChange). */
function supersedes(row: StoredThread, c: ThreadChange): boolean {
  if (c.kind === 'call') return true;
  const at = Date.parse(c.at);
  if (c.kind === 'handover') return at >= (row.lastEventSource === 'api' ? secondOf(row.transitionedAt) : Date.parse(row.transitionedAt));
  return at > Date.parse(row.transitionedAt);
}

/** The row after the change, or null when nothing changes. */
export function nextStoredThread(row: StoredThread | null, contactInboxId: number, c: ThreadChange, now: string): StoredThread | null {
  const lastUserMessageAt = later(row?.lastUserMessageAt ?? null, c.userMessageAt);
  const movesHands =
    c.kind !== 'note' &&
    c.state !== undefined &&
    (row === null ? c.kind !== 'evidence' || c.state === 'standby' : supersedes(row, c) && (c.kind !== 'evidence' || row.state !== c.state));
  if (movesHands) {
    const state = c.state!;
    return {
      contactInboxId,
      state,
      ownerRole: state === 'owned' ? 'primary' : 'secondary',
      ownerAppId: c.ownerAppId ?? null,
      transitionedAt: c.at,
      lastEvent: c.event,
      lastEventSource: c.source,
      lastUserMessageAt,
      expiresAt: expiryOf(c.at, lastUserMessageAt),
      updatedAt: now,
    };
  }
  if (c.kind === 'note') {
    // A request of a thread never recorded: ours, first recorded now (at the event's time).
    const base: StoredThread = row ?? {
      contactInboxId,
      state: 'owned',
      ownerRole: 'primary',
      ownerAppId: c.ownerAppId ?? null,
      transitionedAt: c.at,
      lastEvent: c.event,
      lastEventSource: c.source,
      lastUserMessageAt: null,
      expiresAt: null,
      updatedAt: now,
    };
    return { ...base, lastEvent: c.event, lastEventSource: c.source, lastUserMessageAt, expiresAt: expiryOf(base.transitionedAt, lastUserMessageAt), updatedAt: now };
  }
  if (row === null || lastUserMessageAt === row.lastUserMessageAt) return null;
  return { ...row, lastUserMessageAt, expiresAt: expiryOf(row.transitionedAt, lastUserMessageAt), updatedAt: now };
}

/** The thread as the API shows it: no row is ours; idle is computed from `now`. */
export function threadSnapshot(contactInboxId: number, row: StoredThread | null, ourAppId: string, now = new Date()): ThreadState {
  if (row === null) {
    return {
      contactInboxId: String(contactInboxId),
      state: 'owned',
      ownerRole: 'primary',
      ownerAppId: ourAppId,
      transitionedAt: null,
      lastUserMessageAt: null,
      expiresAt: null,
      idleSince: null,
      lastEvent: null,
      lastEventSource: null,
      updatedAt: null,
    };
  }
  const idle = row.expiresAt !== null && Date.parse(row.expiresAt) <= now.getTime();
  return {
    contactInboxId: String(contactInboxId),
    state: idle ? 'idle' : row.state,
    ownerRole: row.ownerRole,
    ownerAppId: row.ownerAppId,
    transitionedAt: row.transitionedAt,
    lastUserMessageAt: row.lastUserMessageAt,
    expiresAt: row.expiresAt,
    idleSince: idle ? row.expiresAt : null,
    lastEvent: row.lastEvent,
    lastEventSource: row.lastEventSource,
    updatedAt: row.updatedAt,
  };
}

// ---- Reading ----

/**
 * True when the contact's thread in the inbox is held by another app (standby, not idle): senders
 * refuse to send then (reason `threadNotOwned`). One indexed statement, or none when the caller
 * read the standby's end in this transaction already (`standbyUntil`, from findContactOfSource).
 */
export async function threadHeldByOther(db: Executor, workspaceId: number, contactId: number, inboxId: number, now?: Date, standbyUntil?: string | null): Promise<boolean> {
  const at = (now ?? new Date()).toISOString();
  return standbyUntil !== undefined ? standbyHolds(standbyUntil, at) : threadInStandby(db, workspaceId, contactId, inboxId, at);
}

// ---- Network events (the engine) ----

/**
 * Applies a network's event to the thread of the person `personId` in the inbox, in one
 * transaction (the row locked on PostgreSQL). A person the inbox does not know has no contact
 * inbox, so no thread to record: the answer says so. Answers the event's outcome.
 */
export async function applyNetworkThreadEvent(db: Executor, workspaceId: number, inboxId: number, personId: string, change: ThreadChange): Promise<string> {
  return inTransaction(db, async (trx) => {
    const contactInboxId = await contactInboxIdBySource(trx, workspaceId, inboxId, personId);
    if (contactInboxId === null) return 'a person the inbox does not know: no thread to record';
    const row = await findStoredThread(trx, workspaceId, contactInboxId, { lock: true });
    const next = nextStoredThread(row, contactInboxId, change, nowIso());
    if (next === null) return `thread of contact inbox ${contactInboxId}: unchanged`;
    await saveStoredThread(trx, workspaceId, next);
    const moved = next.transitionedAt !== row?.transitionedAt || next.state !== row?.state;
    return `thread of contact inbox ${contactInboxId}: ${moved ? `${next.state}${next.ownerAppId ? ` (app ${next.ownerAppId})` : ''}` : `${change.event} recorded, still ${next.state}`}`;
  });
}

// ---- Our calls (the API) ----

export interface ThreadControlDeps {
  db: Executor;
  adapter: ChannelAdapter;
  logger: Logger;
}

const channels: readonly string[] = ['photo', 'net'] satisfies Channel[];

/** 422 validation about the contact inbox a call names. */
const refused = (reason: string, detail: string) => new AppError('validation', { data: { field: 'contactInboxId', reason, detail } });

/**
 * The conversation (404 when not the workspace's) and the contact inbox named (404 `ContactInbox`
 * when not the workspace's; 422 `notInConversation` when it is another contact's or inbox's).
 */
async function resolveTarget(db: Executor, workspaceId: number, conversationId: string, contactInboxId: string): Promise<ThreadTarget> {
  const conversation = await getConversation(db, workspaceId, conversationId);
  const key = idNumber(contactInboxId);
  const target = key === null ? null : await findThreadTarget(db, workspaceId, key);
  if (!target) throw notFound('ContactInbox');
  if (String(target.contactId) !== conversation.contactId || String(target.inboxId) !== conversation.inboxId) {
    throw refused(
      'notInConversation',
      `Contact inbox ${contactInboxId} is contact ${target.contactId} in inbox ${target.inboxId}; conversation ${conversationId} is contact ${conversation.contactId} in inbox ${conversation.inboxId ?? '(none)'}`,
    );
  }
  return target;
}

/** What a network call for the thread needs: an active photo or net inbox, and the person's network id there. */
function networkTarget(t: ThreadTarget): { inbox: { id: number; channel: Channel; sourceId: string }; personId: string } {
  if (!t.active) throw refused('inboxInactive', `Inbox ${t.inboxId} is inactive: it calls the network for nothing until it is switched on again`);
  if (!channels.includes(t.channel)) throw refused('channelUnsupported', `Inbox ${t.inboxId} is a ${t.channel} inbox: thread control is for photo and net inboxes`);
  if (t.personId === null) throw refused('noNetworkId', `The contact has no network id in inbox ${t.inboxId}: the network cannot be told whose thread it is`);
  return { inbox: { id: t.inboxId, channel: t.channel as Channel, sourceId: t.accountId ?? '' }, personId: t.personId };
}

/** A refused adapter call, as message sends answer it: an error log, then 400 businessError with the provider's words. */
async function callFailure(deps: ThreadControlDeps, workspaceId: number, t: ThreadTarget, err: ChannelError, what: string): Promise<AppError> {
  await insertErrorLog(deps.db, workspaceId, { contactId: t.contactId, action: t.channel, detail: err.providerMessage, httpCode: err.httpCode === null ? '500' : String(err.httpCode) });
  deps.logger.warn({ workspaceId, contactInboxId: t.contactInboxId, reason: err.reason, httpCode: err.httpCode }, `${what} failed: ${err.providerMessage}`);
  return new AppError('businessError', { data: { reason: err.reason, providerMessage: err.providerMessage, httpCode: err.httpCode, retryable: err.retryable } });
}

/** Records our call's result (it always applies) and answers the thread as it is now. */
async function applyCall(db: Executor, workspaceId: number, contactInboxId: number, change: Omit<ThreadChange, 'kind' | 'source' | 'at'>, ourAppId: string): Promise<ThreadControlResult> {
  const now = nowIso();
  const next = await inTransaction(db, async (trx) => {
    const row = await findStoredThread(trx, workspaceId, contactInboxId, { lock: true });
    const moved = nextStoredThread(row, contactInboxId, { ...change, kind: 'call', source: 'api', at: now }, now)!;
    await saveStoredThread(trx, workspaceId, moved);
    return moved;
  });
  return { status: 'applied', snapshot: threadSnapshot(contactInboxId, next, ourAppId) };
}

/**
 * POST /v1/conversations/{id}/thread-control: take (our app takes the thread), pass (to
 * `targetAppId`, default the handover app) or release (to the handover app), through the channel
 * adapter; sync asks it who holds the thread. A take of a thread already ours, or a pass or
 * release of one already another app's, calls nothing and answers `notEscalation`.
 */
export async function controlThread(deps: ThreadControlDeps, workspaceId: number, conversationId: string, input: ThreadControlInput): Promise<ThreadControlResult> {
  if (input.action === 'sync') return syncThreadOwner(deps, workspaceId, conversationId, { contactInboxId: input.contactInboxId });
  const { db, adapter } = deps;
  const target = await resolveTarget(db, workspaceId, conversationId, input.contactInboxId);
  const { inbox, personId } = networkTarget(target);
  const row = await findStoredThread(db, workspaceId, target.contactInboxId);
  const wanted: StoredThreadState = input.action === 'take' ? 'owned' : 'standby';
  if ((row?.state ?? 'owned') === wanted) return { status: 'notEscalation', snapshot: threadSnapshot(target.contactInboxId, row, adapter.appId) };
  const request: ThreadControlRequest = {
    action: input.action,
    targetAppId: input.action === 'pass' ? (input.targetAppId ?? adapter.handoverAppId) : null,
    metadata: input.metadata ?? null,
  };
  // Outside any transaction: a network call never holds one open.
  try {
    await adapter.controlThread({ workspaceId, inbox, recipientId: personId, contactId: target.contactId, request });
  } catch (err) {
    if (!isChannelError(err)) throw err;
    throw await callFailure(deps, workspaceId, target, err, `thread ${input.action}`);
  }
  const ownerAppId = input.action === 'take' ? adapter.appId : (request.targetAppId ?? adapter.handoverAppId);
  return applyCall(db, workspaceId, target.contactInboxId, { state: wanted, ownerAppId, event: input.action }, adapter.appId);
}

/**
 * POST /v1/conversations/{id}/thread-control/sync: the network's thread owner (through the
 * adapter) becomes the record: ours when it names our app or none, another app's otherwise.
 * `notEscalation` when the record said so already (nothing is written).
 */
export async function syncThreadOwner(deps: ThreadControlDeps, workspaceId: number, conversationId: string, input: SyncThreadOwnerInput): Promise<ThreadControlResult> {
  const { db, adapter } = deps;
  const target = await resolveTarget(db, workspaceId, conversationId, input.contactInboxId);
  const { inbox, personId } = networkTarget(target);
  let appId: string | null;
  try {
    appId = (await adapter.fetchThreadOwner({ workspaceId, inbox, recipientId: personId })).appId;
  } catch (err) {
    if (!isChannelError(err)) throw err;
    throw await callFailure(deps, workspaceId, target, err, 'thread owner fetch');
  }
  const ours = appId === null || appId === adapter.appId;
  const row = await findStoredThread(db, workspaceId, target.contactInboxId);
  const same = ours ? (row?.state ?? 'owned') === 'owned' : row?.state === 'standby' && row.ownerAppId === appId;
  if (same) return { status: 'notEscalation', snapshot: threadSnapshot(target.contactInboxId, row, adapter.appId) };
  return applyCall(db, workspaceId, target.contactInboxId, { state: ours ? 'owned' : 'standby', ownerAppId: ours ? adapter.appId : appId, event: 'sync' }, adapter.appId);
}
