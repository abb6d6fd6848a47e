import type { Selectable } from 'kysely';
import { isPostgres, type Executor } from '../../db/database.js';
import type { ThreadStatesTable } from '../../db/types.js';
import type { StoredThreadState, ThreadEvent, ThreadEventSource, ThreadOwnerRole } from './thread-state.schema.js';

/** A thread_states row as the service works on it. */
export interface StoredThread {
  contactInboxId: number;
  state: StoredThreadState;
  ownerRole: ThreadOwnerRole;
  ownerAppId: string | null;
  transitionedAt: string;
  expiresAt: string | null;
  lastEvent: ThreadEvent;
  lastEventSource: ThreadEventSource;
  lastUserMessageAt: string | null;
  updatedAt: string;
}

const columns = [
  'contact_inbox_id',
  'state',
  'owner_role',
  'owner_app_id',
  'transitioned_at',
  'expires_at',
  'last_event',
  'last_event_source',
  'last_user_message_at',
  'updated_at',
] as const;

const toStoredThread = (r: Pick<Selectable<ThreadStatesTable>, (typeof columns)[number]>): StoredThread => ({
  contactInboxId: r.contact_inbox_id,
  state: r.state as StoredThreadState,
  ownerRole: r.owner_role as ThreadOwnerRole,
  ownerAppId: r.owner_app_id,
  transitionedAt: r.transitioned_at,
  expiresAt: r.expires_at,
  lastEvent: r.last_event as ThreadEvent,
  lastEventSource: r.last_event_source as ThreadEventSource,
  lastUserMessageAt: r.last_user_message_at,
  updatedAt: r.updated_at,
});

/** The contact inbox's row, or null (the thread was always ours). `lock`: PostgreSQL locks it until the transaction ends. */
export async function findStoredThread(db: Executor, workspaceId: number, contactInboxId: number, opts: { lock?: boolean } = {}): Promise<StoredThread | null> {
  let q = db.selectFrom('thread_states').select(columns).where('workspace_id', '=', workspaceId).where('contact_inbox_id', '=', contactInboxId);
  if (opts.lock && isPostgres(db)) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row ? toStoredThread(row) : null;
}

/** Rows of many contact inboxes in one statement (ContactInbox.threadState); those without one are missing. */
export async function storedThreadsByContactInboxIds(db: Executor, workspaceId: number, ids: readonly number[]): Promise<StoredThread[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('thread_states').select(columns).where('workspace_id', '=', workspaceId).where('contact_inbox_id', 'in', [...ids]).execute();
  return rows.map(toStoredThread);
}

/** Writes the row whole (one statement: it joins the caller's transaction). */
export async function saveStoredThread(db: Executor, workspaceId: number, r: StoredThread): Promise<void> {
  const values = {
    state: r.state,
    owner_role: r.ownerRole,
    owner_app_id: r.ownerAppId,
    transitioned_at: r.transitionedAt,
    expires_at: r.expiresAt,
    last_event: r.lastEvent,
    last_event_source: r.lastEventSource,
    last_user_message_at: r.lastUserMessageAt,
    updated_at: r.updatedAt,
  };
  await db
    .insertInto('thread_states')
    .values({ contact_inbox_id: r.contactInboxId, workspace_id: workspaceId, ...values })
    .onConflict((oc) => oc.column('contact_inbox_id').doUpdateSet(values))
    .execute();
}

/** A contact inbox with what a handover call needs: its contact and inbox, the person's network id, the inbox's channel, account and status. */
export interface ThreadTarget {
  contactInboxId: number;
  contactId: number;
  inboxId: number;
  personId: string | null;
  channel: string;
  accountId: string | null;
  active: boolean;
}

export async function findThreadTarget(db: Executor, workspaceId: number, contactInboxId: number): Promise<ThreadTarget | null> {
  const r = await db
    .selectFrom('contact_inboxes as m')
    .innerJoin('inboxes as i', 'i.id', 'm.inbox_id')
    .select(['m.id', 'm.contact_id', 'm.inbox_id', 'm.source_id as person_id', 'i.channel', 'i.source_id as account_id', 'i.status'])
    .where('m.workspace_id', '=', workspaceId)
    .where('i.workspace_id', '=', workspaceId)
    .where('m.id', '=', contactInboxId)
    .executeTakeFirst();
  if (!r) return null;
  return { contactInboxId: r.id, contactId: r.contact_id, inboxId: r.inbox_id, personId: r.person_id, channel: r.channel, accountId: r.account_id, active: r.status === 'active' };
}

/** The contact inbox of the person with that network id in the inbox (the sender of an event), or null. */
export async function contactInboxIdBySource(db: Executor, workspaceId: number, inboxId: number, personId: string): Promise<number | null> {
  const r = await db
    .selectFrom('contact_inboxes')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('inbox_id', '=', inboxId)
    .where('source_id', '=', personId)
    .executeTakeFirst();
  return r?.id ?? null;
}

/**
 * Whether the contact's thread in the inbox is held by another app at `nowIso`: its row says
 * standby and has not expired (idle). One statement, through the unique (contact_id, inbox_id)
 * index of contact_inboxes and the primary key of thread_states.
 */
export async function threadInStandby(db: Executor, workspaceId: number, contactId: number, inboxId: number, nowIso: string): Promise<boolean> {
  const r = await db
    .selectFrom('contact_inboxes as m')
    .innerJoin('thread_states as s', 's.contact_inbox_id', 'm.id')
    .select('s.expires_at')
    .where('m.contact_id', '=', contactId)
    .where('m.inbox_id', '=', inboxId)
    .where('m.workspace_id', '=', workspaceId)
    .where('s.workspace_id', '=', workspaceId)
    .where('s.state', '=', 'standby')
    .executeTakeFirst();
  return standbyHolds(r?.expires_at ?? null, nowIso);
}

/**
 * Whether a standby that lasts until `until` (null: the thread is not in standby) still holds at
 * `nowIso`: past it, the thread is idle and ours to answer. Times are ISO strings on both engines.
 */
export const standbyHolds = (until: string | null, nowIso: string): boolean => until !== null && until > nowIso;
