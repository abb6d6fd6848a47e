import { contactColumns, contactListingColumns } from '../../db/columns.js';
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import { uniqueViolation } from '../../db/errors.js';
import { isPostgres, type Executor } from '../../db/database.js';
import { inTexts, prepared } from '../../db/prepared.js';
import { heldWritesOf, type HeldKind } from '../../db/held-writes.js';
import { writeLatest } from '../shared/latest-times.js';
import type { ContactsTable } from '../../db/types.js';
import { bool, idString, nowIso, toBool } from '../../db/values.js';
import { containsInsensitive, sqliteTrigramMatches, usesTrigramIndex, workspaceTrigramCandidates } from '../../db/search.js';
import type { ContactListing, ContactScalars } from './contact.schema.js';
import { listingOnly } from '../shared/listing.js';
import { workspaceRowCount } from '../shared/row-count.repository.js';
import { sameWorkspace } from '../shared/scope.js';

const fullNameOf = (first: string | null, last: string | null) => [first, last].filter((p) => p && p.trim()).join(' ');

/** Who the contact is, as a whole contact and a listing both say it. */
const identityOf = (r: Pick<Selectable<ContactsTable>, 'avatar' | 'phone_number' | 'email' | 'first_name' | 'last_name'>) => ({
  avatar: r.avatar,
  phoneNumber: r.phone_number,
  email: r.email,
  firstName: r.first_name,
  lastName: r.last_name,
  fullName: fullNameOf(r.first_name, r.last_name),
});

export const toContactScalars = (r: Selectable<ContactsTable>): ContactScalars => ({
  id: idString(r.id),
  ...identityOf(r),
  ref: r.ref,
  country: r.country,
  state: r.state,
  city: r.city,
  location: r.location,
  locale: r.locale,
  timezone: r.timezone,
  workspaceId: idString(r.workspace_id),
  gender: r.gender,
  emailVerified: toBool(r.email_verified),
  emailOptIn: toBool(r.email_opt_in),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  lastReadAt: r.last_read_at,
  subscribedAt: r.subscribed_at,
  broadcastSubscribedAt: r.broadcast_subscribed_at,
  blockedAt: r.blocked_at,
});

const toContactListing = (r: Pick<Selectable<ContactsTable>, (typeof contactListingColumns)[number]>): ContactListing => ({
  [listingOnly]: true,
  id: idString(r.id),
  workspaceId: idString(r.workspace_id),
  ...identityOf(r),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** Another contact of the workspace already has this email (any case) or phone number. */
export class DuplicateContactError extends Error {
  constructor(readonly field: 'email' | 'phoneNumber') {
    super(`duplicate contact ${field}`);
  }
}

/** Which unique index a failed insert hit, from either driver's error; null for any other error. */
function duplicateFieldOf(err: unknown): 'email' | 'phoneNumber' | null {
  const where = uniqueViolation(err);
  if (where === null) return null;
  if (/phone/i.test(where)) return 'phoneNumber';
  if (/email/i.test(where)) return 'email';
  return null;
}

/** Inserts a contact; the unique indexes on email and phone number raise DuplicateContactError. */
export async function insertContact(
  db: Executor,
  workspaceId: number,
  c: { email: string | null; phoneNumber: string | null; firstName: string | null; lastName: string | null } & Partial<EditableContactColumns>,
  /** When the new contact last exchanged a message: a person met through their message (null: none yet). */
  lastMessageAt: string | null = null,
): Promise<ContactScalars> {
  const now = nowIso();
  const { email, phoneNumber, firstName, lastName, ...more } = c;
  const base = {
    workspace_id: workspaceId,
    gender: more.gender ?? 'unknown',
    email_verified: 0,
    email_opt_in: bool(more.emailOptIn ?? false),
    email,
    phone_number: phoneNumber,
    first_name: firstName,
    last_name: lastName,
    last_message_at: lastMessageAt,
    created_at: now,
    updated_at: now,
  };
  // The engine makes contacts of names alone, one per new commenter: that shape is prepared.
  const inserted = Object.keys(more).length === 0 ? insertNamed.first(db, base) : db.insertInto('contacts').values({ ...editableColumns(more), ...base }).returning(contactColumns).executeTakeFirst();
  const row = await inserted.catch((err: unknown) => {
    const field = duplicateFieldOf(err);
    throw field ? new DuplicateContactError(field) : err;
  });
  return toContactScalars(row!);
}

type NamedContactRow = Pick<Insertable<ContactsTable>, 'workspace_id' | 'gender' | 'email_verified' | 'email_opt_in' | 'email' | 'phone_number' | 'first_name' | 'last_name' | 'last_message_at' | 'created_at' | 'updated_at'>;

const insertNamed = prepared((db, r: NamedContactRow) =>
  db
    .insertInto('contacts')
    .values({
      workspace_id: r.workspace_id,
      gender: r.gender,
      email_verified: r.email_verified,
      email_opt_in: r.email_opt_in,
      email: r.email,
      phone_number: r.phone_number,
      first_name: r.first_name,
      last_name: r.last_name,
      last_message_at: r.last_message_at,
      created_at: r.created_at,
      updated_at: r.updated_at,
    })
    .returning(contactColumns),
);

/**
 * How a contact lookup reads the row. `lock`: inside a transaction, PostgreSQL locks the row until
 * it ends (FOR UPDATE, in the same statement), so what a write reads as the contact's state before
 * it stays so until it commits: the events it records say exactly what changed. SQLite runs one
 * transaction at a time: nothing to add there.
 */
export interface ContactLookupOptions {
  lock?: boolean;
}

export async function findContactById(db: Executor, workspaceId: number, id: number, opts: ContactLookupOptions = {}): Promise<ContactScalars | null> {
  const row = await (opts.lock ? lockedContactById : contactById).first(db, { workspaceId, id });
  return row ? toContactScalars(row) : null;
}

/** Emails match case-insensitively (served by the unique index on lower(email)). */
export async function findContactByEmail(db: Executor, workspaceId: number, email: string, opts: ContactLookupOptions = {}): Promise<ContactScalars | null> {
  const row = await (opts.lock ? lockedContactByEmail : contactByEmail).first(db, { workspaceId, email: email.toLowerCase() });
  return row ? toContactScalars(row) : null;
}

export async function findContactByPhone(db: Executor, workspaceId: number, phone: string, opts: ContactLookupOptions = {}): Promise<ContactScalars | null> {
  const row = await (opts.lock ? lockedContactByPhone : contactByPhone).first(db, { workspaceId, phone });
  return row ? toContactScalars(row) : null;
}

// Every contact identifier resolves through one of these: compiled once (src/db/prepared.ts), and
// once more with the row lock (PostgreSQL's FOR UPDATE; the same SQL on SQLite).
const byId = (db: Executor, p: { workspaceId: number; id: number }) => db.selectFrom('contacts').select(contactColumns).where('workspace_id', '=', p.workspaceId).where('id', '=', p.id);
const byEmail = (db: Executor, p: { workspaceId: number; email: string }) =>
  db.selectFrom('contacts').select(contactColumns).where('workspace_id', '=', p.workspaceId).where(sql`lower(email)`, '=', p.email);
const byPhone = (db: Executor, p: { workspaceId: number; phone: string }) =>
  db.selectFrom('contacts').select(contactColumns).where('workspace_id', '=', p.workspaceId).where('phone_number', '=', p.phone);
const contactById = prepared(byId);
const contactByEmail = prepared(byEmail);
const contactByPhone = prepared(byPhone);
const lockedContactById = prepared((db, p: { workspaceId: number; id: number }) => (isPostgres(db) ? byId(db, p).forUpdate() : byId(db, p)));
const lockedContactByEmail = prepared((db, p: { workspaceId: number; email: string }) => (isPostgres(db) ? byEmail(db, p).forUpdate() : byEmail(db, p)));
const lockedContactByPhone = prepared((db, p: { workspaceId: number; phone: string }) => (isPostgres(db) ? byPhone(db, p).forUpdate() : byPhone(db, p)));

export async function findContactsByIds(db: Executor, workspaceId: number, ids: readonly number[]): Promise<ContactScalars[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('contacts').select(contactColumns).where(sameWorkspace('workspace_id', workspaceId)).where('id', 'in', [...ids]).execute();
  return rows.map(toContactScalars);
}

/** The text a keyword is searched in: the expression of the workspace trigram indexes (both engines). */
const searchText = sql`coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' || coalesce(email, '') || ' ' || coalesce(phone_number, '')`;

/** Trigram candidates (of the workspace) above which walking the workspace's order is cheaper. */
const MANY_MATCHES = 1000;

/**
 * Newest first (creation time, then id), keyset-paginated: `after` is the last contact of the
 * previous page. Served by the (workspace_id, created_at) index in that order, so a page reads
 * only its rows. `keyword` is a case-insensitive substring of first name, last name, email or phone.
 *
 * Keyword search must not scan the workspace, and its cost must depend only on the workspace's own
 * contacts: a keyword of 3+ characters is answered from the workspace's trigram tokens
 * (src/db/search.ts), whose lists hold no other workspace's rows. The choice between them and
 * walking the workspace's order is made here, on both engines (PostgreSQL's planner, left to
 * itself, read every candidate of a keyword all 50,000 contacts of a workspace had, and sorted
 * them): the workspace's candidates are first counted up to MANY_MATCHES. Up to that, the page is
 * those candidates looked up by key and sorted, the workspace check a plain filter
 * (`sameWorkspace`) so SQLite cannot walk the workspace's created_at index probing the candidates
 * for every contact. Beyond it, the keyword is common and the walk in created_at order finds a page
 * after a few rows, where looking up every candidate would not. A keyword of 1 or 2 characters has
 * no trigram and always walks. Every path keeps the LIKE (ILIKE) filter, so the results are
 * exactly LIKE's.
 */
export async function listContacts(
  db: Executor,
  workspaceId: number,
  opts: { limit: number; after?: { createdAt: string; id: number }; keyword?: string },
): Promise<ContactScalars[]> {
  const keyword = opts.keyword;
  if (!keyword) return (await newest(db, workspaceId, opts)).map(toContactScalars);
  let q = db.selectFrom('contacts').select(contactColumns);
  if (usesTrigramIndex(keyword) && (await countCandidates(db, workspaceId, keyword, MANY_MATCHES + 1)) <= MANY_MATCHES) {
    q = q.where(sameWorkspace('workspace_id', workspaceId)).where(workspaceTrigramCandidates(db, 'contacts', workspaceId, keyword));
  } else if (isPostgres(db)) {
    return walkMatching(db, workspaceId, { ...opts, keyword });
  } else {
    q = q.where('workspace_id', '=', workspaceId);
  }
  const after = opts.after;
  if (after) q = q.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after.createdAt, after.id)));
  q = q.where(containsInsensitive(db, searchText, keyword));
  const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(opts.limit).execute();
  return rows.map(toContactScalars);
}

// The list without a keyword (a frontend's contact page, and the next ones): compiled once, the
// SQL the keyword path above builds without its keyword filter; with every column, and with a
// listing's. Answers the page's rows, after `window.after` when given.
const newestOfWorkspace = <C extends (typeof contactColumns)[number]>(columns: readonly C[]) => {
  const inOrder = (db: Executor, workspaceId: number) =>
    db.selectFrom('contacts').select(columns).where('workspace_id', '=', workspaceId).orderBy('created_at', 'desc').orderBy('id', 'desc');
  const first = prepared((db, p: { workspaceId: number; limit: number }) => inOrder(db, p.workspaceId).limit(p.limit));
  const after = prepared((db, p: { workspaceId: number; createdAt: string; id: number; limit: number }) =>
    inOrder(db, p.workspaceId)
      .where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(p.createdAt, p.id)))
      .limit(p.limit),
  );
  return (db: Executor, workspaceId: number, window: { limit: number; after?: { createdAt: string; id: number } }) =>
    window.after
      ? after.all(db, { workspaceId, createdAt: window.after.createdAt, id: window.after.id, limit: window.limit })
      : first.all(db, { workspaceId, limit: window.limit });
};
const newest = newestOfWorkspace(contactColumns);
const newestListings = newestOfWorkspace(contactListingColumns);

/**
 * The list without a keyword as listings: for a page that shows only what a listing holds (a
 * GraphQL selection of those fields and relations: contact-search.service.ts listContactsWindow).
 */
export async function listContactListings(db: Executor, workspaceId: number, window: { limit: number; after?: { createdAt: string; id: number } }): Promise<ContactListing[]> {
  return (await newestListings(db, workspaceId, window)).map(toContactListing);
}

/**
 * PostgreSQL, a common keyword: the workspace's contacts in page order, read in growing chunks
 * along the (workspace_id, created_at) index, each row marked by the ILIKE filter, until a page is
 * full. Asked for `workspace_id = ? and <ilike> order by created_at desc limit 21` in one
 * statement, PostgreSQL has no statistics for the searched text, guesses the filter rare, and
 * sorts the whole workspace instead, far slower on a large workspace than this walk.
 */
async function walkMatching(
  db: Executor,
  workspaceId: number,
  opts: { limit: number; after?: { createdAt: string; id: number }; keyword: string },
): Promise<ContactScalars[]> {
  const page: ContactScalars[] = [];
  let cursor = opts.after;
  for (let chunk = Math.max(100, opts.limit * 4); ; chunk = Math.min(chunk * 2, 5000)) {
    let inOrder = db.selectFrom('contacts').select(contactColumns).where('workspace_id', '=', workspaceId);
    const at = cursor;
    if (at) inOrder = inOrder.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(at.createdAt, at.id)));
    const rows = await db
      .selectFrom(inOrder.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(chunk).as('c'))
      .selectAll('c')
      .select(sql<boolean>`${containsInsensitive(db, searchText, opts.keyword)}`.as('matched'))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    for (const row of rows) {
      if (!row.matched) continue;
      page.push(toContactScalars(row));
      if (page.length === opts.limit) return page;
    }
    if (rows.length < chunk) return page;
    const last = rows[rows.length - 1];
    cursor = { createdAt: last.created_at, id: last.id };
  }
}

/**
 * The workspace's contacts whose tokens hold every trigram of the keyword (3+ characters), counting
 * at most `upTo`: SQLite from its FTS5 table, PostgreSQL from the stored tokens (the count stops
 * at `upTo` whichever plan PostgreSQL picks, so it stays cheap for a keyword every contact has).
 */
async function countCandidates(db: Executor, workspaceId: number, keyword: string, upTo: number): Promise<number> {
  const candidates = isPostgres(db)
    ? sql`(select 1 from contacts where ${sameWorkspace('workspace_id', workspaceId)} and ${workspaceTrigramCandidates(db, 'contacts', workspaceId, keyword)} limit ${upTo})`
    : sqliteTrigramMatches('contacts', workspaceId, keyword, upTo);
  const { rows } = await sql<{ n: number }>`select count(*) as n from ${candidates} as candidates`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** Every contact of the workspace: the count the database keeps (migration 2026_11_28_0018). */
export async function countContacts(db: Executor, workspaceId: number): Promise<number> {
  return workspaceRowCount(db, workspaceId, 'contacts');
}

/** The contact fields the API edits (PATCH/PUT/upsert), as the service sees them. */
export interface EditableContactColumns {
  email: string | null;
  phoneNumber: string | null;
  firstName: string | null;
  lastName: string | null;
  gender: 'male' | 'female' | 'unknown';
  avatar: string | null;
  locale: string | null;
  timezone: string | null;
  country: string | null;
  state: string | null;
  city: string | null;
  location: string | null;
  ref: string | null;
  emailOptIn: boolean;
}

/** The fields given as column values (booleans as 0/1); Kysely leaves out the undefined ones. */
const editableColumns = (f: Partial<EditableContactColumns>): Updateable<ContactsTable> => ({
  email: f.email,
  phone_number: f.phoneNumber,
  first_name: f.firstName,
  last_name: f.lastName,
  gender: f.gender,
  avatar: f.avatar,
  locale: f.locale,
  timezone: f.timezone,
  country: f.country,
  state: f.state,
  city: f.city,
  location: f.location,
  ref: f.ref,
  email_opt_in: f.emailOptIn === undefined ? undefined : bool(f.emailOptIn),
});

/**
 * Sets the given fields (and updated_at) of one contact of the workspace; null when there is no
 * such contact. The unique indexes on email and phone number raise DuplicateContactError.
 */
export async function updateContactFields(db: Executor, workspaceId: number, id: number, fields: Partial<EditableContactColumns>): Promise<ContactScalars | null> {
  const row = await db
    .updateTable('contacts')
    .set({ ...editableColumns(fields), updated_at: nowIso() })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .returning(contactColumns)
    .executeTakeFirst()
    .catch((err: unknown) => {
      const field = duplicateFieldOf(err);
      throw field ? new DuplicateContactError(field) : err;
    });
  return row ? toContactScalars(row) : null;
}

/**
 * Sets or clears blocked_at. Blocking a blocked contact keeps its first blockedAt (and its
 * updatedAt); unblocking an unblocked one changes nothing. Null when there is no such contact.
 */
export async function setContactBlocked(db: Executor, workspaceId: number, id: number, blocked: boolean): Promise<ContactScalars | null> {
  const now = nowIso();
  const changed = await db
    .updateTable('contacts')
    .set({ blocked_at: blocked ? now : null, updated_at: now })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .where('blocked_at', blocked ? 'is' : 'is not', null)
    .returning(contactColumns)
    .executeTakeFirst();
  return changed ? toContactScalars(changed) : findContactById(db, workspaceId, id);
}

/** Which of these ids are contacts of the workspace. */
export async function existingContactIds(db: Executor, workspaceId: number, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('contacts').select('id').where(sameWorkspace('workspace_id', workspaceId)).where('id', 'in', [...ids]).execute();
  return rows.map((r) => r.id);
}

/**
 * Deletes contacts of the workspace; their values, tags, notes, inbox memberships, sequence
 * subscriptions and conversations go with them (ON DELETE CASCADE), error logs keep their row with
 * contact_id set to null (ON DELETE SET NULL). Returns how many contacts were deleted.
 */
export async function deleteContactsByIds(db: Executor, workspaceId: number, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db.deleteFrom('contacts').where(sameWorkspace('workspace_id', workspaceId)).where('id', 'in', [...ids]).executeTakeFirst();
  return Number(result.numDeletedRows);
}

// ---------------------------------------------------------------------------------------------
// Network persons as contacts (contact-link.service.ts): every event runs these.

/** A person's contact in an inbox, with what a reply to them needs. */
export interface SourceContact {
  contact: ContactScalars;
  /** Its latest conversation in the inbox (null: none yet). */
  conversationId: number | null;
  /** Until when another app holds their thread in standby (null: not in standby; thread-state.repository.ts standbyHolds). */
  standbyUntil: string | null;
}

/** The contact already linked to this person (`sourceId`) in this inbox, in one statement; null when none is linked. */
export async function findContactOfSource(db: Executor, workspaceId: number, inboxId: number, sourceId: string): Promise<SourceContact | null> {
  const row = await sourceContact.first(db, { inboxId, sourceId, workspaceId });
  return row ? toSourceContact(row) : null;
}

/** findContactOfSource for several people of one inbox in one statement: by source id, those linked. */
export async function findContactsOfSources(db: Executor, workspaceId: number, inboxId: number, sourceIds: readonly string[]): Promise<Map<string, SourceContact>> {
  if (sourceIds.length === 0) return new Map();
  const rows = await sourceContacts.all(db, { inboxId, sourceIds, workspaceId });
  return new Map(rows.map((row) => [row.source_id!, toSourceContact(row)]));
}

const toSourceContact = (row: Selectable<ContactsTable> & { conversation_id: number | null; standby_until: string | null }): SourceContact => ({
  contact: toContactScalars(row),
  conversationId: row.conversation_id,
  standbyUntil: row.standby_until,
});

/**
 * The contacts linked in the inbox, with their latest conversation there and their thread's
 * standby end; `links` are the inbox's contact_inboxes rows (as `ci`) of the people asked for.
 */
const sourceContactQuery = (links: ReturnType<typeof linksOfInbox>, inboxId: number) =>
  links
    .innerJoin('contacts as c', 'c.id', 'ci.contact_id')
    .select(contactColumns.map((column) => `c.${column}` as const))
    .select((eb) =>
      eb
        .selectFrom('conversations as v')
        .select((v) => v.fn.max('v.id').as('id'))
        .whereRef('v.contact_id', '=', 'c.id')
        .where('v.inbox_id', '=', inboxId)
        .as('conversation_id'),
    )
    // The contact inbox is unique per contact and inbox: its thread state is the thread's.
    .select((eb) => eb.selectFrom('thread_states as s').select('s.expires_at').whereRef('s.contact_inbox_id', '=', 'ci.id').where('s.state', '=', 'standby').as('standby_until'))
    .select('ci.source_id');

const linksOfInbox = (db: Executor, inboxId: number) => db.selectFrom('contact_inboxes as ci').where('ci.inbox_id', '=', inboxId);

const sourceContact = prepared((db, p: { inboxId: number; sourceId: string; workspaceId: number }) =>
  sourceContactQuery(linksOfInbox(db, p.inboxId).where('ci.source_id', '=', p.sourceId).where('ci.workspace_id', '=', p.workspaceId), p.inboxId),
);

// The whole list is one parameter: one SQL text, prepared once, however many people a chunk has.
// The workspace is checked on the rows found (scope.ts): SQLite would read its range of links.
// PostgreSQL looks each person up on the inbox's (inbox_id, source_id) index, one after the other:
// from the text alone, without statistics of contact_inboxes (autovacuum not yet run, or off), it
// reads the inbox's whole range of links instead and keeps that plan, growing with the inbox.
// (The `limit 1` keeps it from folding the lookup back into that join.)
const sourceContacts = prepared((db, p: { inboxId: number; sourceIds: readonly string[]; workspaceId: number }) => {
  if (!isPostgres(db)) return sourceContactQuery(linksOfInbox(db, p.inboxId).where(inTexts(db, 'ci.source_id', p.sourceIds)).where(sameWorkspace('ci.workspace_id', p.workspaceId)), p.inboxId);
  const each = db
    .selectFrom(sql<{ source_id: string }>`unnest(${p.sourceIds}::text[])`.as('asked'))
    .innerJoinLateral((eb) => eb.selectFrom('contact_inboxes as link').select(['link.id', 'link.contact_id', 'link.source_id', 'link.workspace_id']).where('link.inbox_id', '=', p.inboxId).whereRef('link.source_id', '=', sql.ref('asked.asked')).limit(sql.lit(1)).as('ci'), (join) => join.onTrue())
    .where(sameWorkspace('ci.workspace_id', p.workspaceId));
  // Typed as the table's rows: the lateral `ci` has only the columns read of it (id, contact, source id, workspace).
  return sourceContactQuery(each as unknown as ReturnType<typeof linksOfInbox>, p.inboxId);
});

/** Deletes one contact of the workspace (what goes with it: see deleteContactsByIds). */
export async function deleteContactById(db: Executor, workspaceId: number, id: number): Promise<void> {
  await db.deleteFrom('contacts').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
}

/** When the contact was created and last exchanged a message (null: never); null when there is no such contact. */
export async function findContactActivity(db: Executor, workspaceId: number, id: number): Promise<{ createdAt: string; lastMessageAt: string | null } | null> {
  const c = await db.selectFrom('contacts').select(['created_at', 'last_message_at']).where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
  return c ? { createdAt: c.created_at, lastMessageAt: c.last_message_at } : null;
}

/**
 * Moves the contact's last_message_at to `at`, unless it is later already. Held by a transaction
 * that holds writes (db/held-writes.ts), with the other touches of its chunk.
 */
export async function touchContactLastMessage(db: Executor, workspaceId: number, id: number, at: string): Promise<void> {
  const held = heldWritesOf(db);
  if (held) held.hold(heldTouches, { workspaceId, contactId: id, at });
  else await touchContact.run(db, { workspaceId, contactId: id, at });
}

/** Held touches: one statement a workspace, each contact moved to its latest. */
const heldTouches: HeldKind<{ workspaceId: number; contactId: number; at: string }> = {
  write: (db, touches) =>
    writeLatest(db, touches, (t) => t.contactId, (workspaceId, ids, at) =>
      db
        .updateTable('contacts')
        .set({ last_message_at: sql<string>`case when last_message_at is null or last_message_at < ${at} then ${at} else last_message_at end` })
        .where(sameWorkspace('workspace_id', workspaceId))
        .where('id', 'in', ids)
        .execute(),
    ),
};

const touchContact = prepared((db, p: { workspaceId: number; contactId: number; at: string }) =>
  db
    .updateTable('contacts')
    .set({ last_message_at: sql<string>`case when last_message_at is null or last_message_at < ${p.at} then ${p.at} else last_message_at end` })
    .where('workspace_id', '=', p.workspaceId)
    .where('id', '=', p.contactId),
);

/**
 * Locks the contact's row until the transaction ends, on PostgreSQL (SQLite transactions already
 * run one at a time: nothing to do there).
 */
export async function lockContactRow(trx: Executor, workspaceId: number, id: number): Promise<void> {
  if (isPostgres(trx)) await trx.selectFrom('contacts').select('id').where('workspace_id', '=', workspaceId).where('id', '=', id).forUpdate().execute();
}

/**
 * The contacts of the workspace that have any of these ids, emails (any case) or phone numbers: an
 * import batch's matches. One statement per kind, each on its own index: with the three as one
 * `or`, SQLite walked every contact of the workspace, and a batch cost grew with the workspace.
 */
export async function contactsMatchingKeys(db: Executor, workspaceId: number, keys: { ids: readonly number[]; emails: readonly string[]; phones: readonly string[] }): Promise<ContactScalars[]> {
  const base = () => db.selectFrom('contacts').select(contactColumns).where('workspace_id', '=', workspaceId);
  const found = new Map<number, Selectable<ContactsTable>>();
  const add = (rows: Selectable<ContactsTable>[]) => rows.forEach((r) => found.set(r.id, r));
  // By primary key, the workspace a plain filter: on the workspace's index SQLite would walk it.
  if (keys.ids.length) add((await db.selectFrom('contacts').select(contactColumns).where(sameWorkspace('workspace_id', workspaceId)).where('id', 'in', [...keys.ids]).execute()) as Selectable<ContactsTable>[]);
  if (keys.emails.length) add((await base().where(sql`lower(email)`, 'in', keys.emails.map((e) => e.toLowerCase())).execute()) as Selectable<ContactsTable>[]);
  if (keys.phones.length) add((await base().where('phone_number', 'in', [...keys.phones]).execute()) as Selectable<ContactsTable>[]);
  return [...found.values()].map(toContactScalars);
}

/**
 * Inserts contacts in one statement per 500 (an import batch); the unique indexes on email and
 * phone number raise DuplicateContactError, and nothing of the statement is kept. Rows come back
 * in no promised order: callers match them by email or phone number.
 */
export async function insertContacts(
  db: Executor,
  workspaceId: number,
  contacts: readonly { email: string | null; phoneNumber: string | null; firstName: string | null; lastName: string | null }[],
): Promise<ContactScalars[]> {
  const now = nowIso();
  const out: ContactScalars[] = [];
  for (let i = 0; i < contacts.length; i += 500) {
    const values = contacts.slice(i, i + 500).map((c) => ({
      workspace_id: workspaceId,
      gender: 'unknown' as const,
      email_verified: 0,
      email_opt_in: bool(false),
      email: c.email,
      phone_number: c.phoneNumber,
      first_name: c.firstName,
      last_name: c.lastName,
      created_at: now,
      updated_at: now,
    }));
    const rows = await db
      .insertInto('contacts')
      .values(values)
      .returning(contactColumns)
      .execute()
      .catch((err: unknown) => {
        const field = duplicateFieldOf(err);
        throw field ? new DuplicateContactError(field) : err;
      });
    out.push(...rows.map(toContactScalars));
  }
  return out;
}
