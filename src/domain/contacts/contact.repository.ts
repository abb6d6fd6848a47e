import { sql, type Selectable } from 'kysely';
import { countRows } from '../../db/count.js';
import type { Executor } from '../../db/database.js';
import type { ContactsTable } from '../../db/types.js';
import { idString, nowIso, toBool } from '../../db/values.js';
import { containsInsensitive, trigramMatches, usesTrigramTable } from '../../db/search.js';
import type { ContactScalars } from './contact.schema.js';
import { sameWorkspace } from '../shared/scope.js';

const fullNameOf = (first: string | null, last: string | null) => [first, last].filter((p) => p && p.trim()).join(' ');

export const toContactScalars = (r: Selectable<ContactsTable>): ContactScalars => ({
  id: idString(r.id),
  avatar: r.avatar,
  phoneNumber: r.phone_number,
  email: r.email,
  firstName: r.first_name,
  lastName: r.last_name,
  fullName: fullNameOf(r.first_name, r.last_name),
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

/** Another contact of the workspace already has this email (any case) or phone number. */
export class DuplicateContactError extends Error {
  constructor(readonly field: 'email' | 'phoneNumber') {
    super(`duplicate contact ${field}`);
  }
}

/** Which unique index a failed insert hit, from either driver's error; null for any other error. */
function duplicateFieldOf(err: unknown): 'email' | 'phoneNumber' | null {
  const e = err as { code?: string; constraint?: string; message?: string };
  if (e?.code !== '23505' && e?.code !== 'SQLITE_CONSTRAINT_UNIQUE') return null;
  const where = `${e.constraint ?? ''} ${e.message ?? ''}`;
  if (/phone/i.test(where)) return 'phoneNumber';
  if (/email/i.test(where)) return 'email';
  return null;
}

/** Inserts a contact; the unique indexes on email and phone number raise DuplicateContactError. */
export async function insertContact(
  db: Executor,
  workspaceId: number,
  c: { email: string | null; phoneNumber: string | null; firstName: string | null; lastName: string | null },
): Promise<ContactScalars> {
  const now = nowIso();
  const row = await db
    .insertInto('contacts')
    .values({
      workspace_id: workspaceId,
      email: c.email,
      phone_number: c.phoneNumber,
      first_name: c.firstName,
      last_name: c.lastName,
      gender: 'unknown',
      email_verified: 0,
      email_opt_in: 0,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
    .catch((err: unknown) => {
      const field = duplicateFieldOf(err);
      throw field ? new DuplicateContactError(field) : err;
    });
  return toContactScalars(row);
}

export async function findContactById(db: Executor, workspaceId: number, id: number): Promise<ContactScalars | null> {
  const row = await db.selectFrom('contacts').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
  return row ? toContactScalars(row) : null;
}

/** Emails match case-insensitively (served by the unique index on lower(email)). */
export async function findContactByEmail(db: Executor, workspaceId: number, email: string): Promise<ContactScalars | null> {
  const row = await db
    .selectFrom('contacts')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();
  return row ? toContactScalars(row) : null;
}

export async function findContactByPhone(db: Executor, workspaceId: number, phone: string): Promise<ContactScalars | null> {
  const row = await db.selectFrom('contacts').selectAll().where('workspace_id', '=', workspaceId).where('phone_number', '=', phone).executeTakeFirst();
  return row ? toContactScalars(row) : null;
}

export async function findContactsByIds(db: Executor, workspaceId: number, ids: readonly number[]): Promise<ContactScalars[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('contacts').selectAll().where(sameWorkspace('workspace_id', workspaceId)).where('id', 'in', [...ids]).execute();
  return rows.map(toContactScalars);
}

/** The text a keyword is searched in: the expression of the pg_trgm index and of contacts_fts. */
const searchText = sql`coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' || coalesce(email, '') || ' ' || coalesce(phone_number, '')`;

/** Trigram matches (over all workspaces) above which walking the workspace's order is cheaper. */
const MANY_MATCHES = 1000;

/**
 * Newest first (creation time, then id), keyset-paginated: `after` is the last contact of the
 * previous page. Served by the (workspace_id, created_at) index in that order, so a page reads
 * only its rows. `keyword` is a case-insensitive substring of first name, last name, email or phone.
 *
 * Keyword search must not scan the workspace. PostgreSQL: ILIKE served by the pg_trgm expression
 * index (its planner weighs that index against walking the workspace's order from its statistics).
 * SQLite has no such statistics, so the choice is made here: a keyword of 3+ characters is first
 * counted in the FTS5 trigram table up to MANY_MATCHES (a fraction of a millisecond). Up to that,
 * the page is those matches looked up by key and sorted, the workspace check a plain filter
 * (`sameWorkspace`) so SQLite cannot walk the workspace's created_at index probing the match list
 * for every contact (a rare keyword among 100,000 contacts: under 1 ms instead of about 110 ms).
 * Beyond it, the keyword is common and the walk in created_at order finds a page after a few
 * thousand rows, where looking up every match would not (every contact: 65 ms). A keyword of 1 or
 * 2 characters has no trigram and always walks. Every path keeps the LIKE (ILIKE) filter, so the
 * results are exactly LIKE's: the trigram table folds case beyond ASCII, SQLite's LIKE does not.
 */
export async function listContacts(
  db: Executor,
  workspaceId: number,
  opts: { limit: number; after?: { createdAt: string; id: number }; keyword?: string },
): Promise<ContactScalars[]> {
  const keyword = opts.keyword;
  const fewMatches = usesTrigramTable(db, keyword) && (await countTrigramMatches(db, keyword, MANY_MATCHES + 1)) <= MANY_MATCHES;
  let q = db.selectFrom('contacts').selectAll();
  if (fewMatches) {
    q = q.where(sameWorkspace('workspace_id', workspaceId)).where('id', 'in', trigramMatches('contacts_fts', keyword));
  } else {
    q = q.where('workspace_id', '=', workspaceId);
  }
  const after = opts.after;
  if (after) q = q.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after.createdAt, after.id)));
  // Same expression as the pg_trgm index on contacts, so PostgreSQL can use it.
  if (keyword) q = q.where(containsInsensitive(db, searchText, keyword));
  const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(opts.limit).execute();
  return rows.map(toContactScalars);
}

/** SQLite: contacts of any workspace whose search text contains the keyword (3+ characters), counting at most `upTo`. */
async function countTrigramMatches(db: Executor, keyword: string, upTo: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from ${trigramMatches('contacts_fts', keyword, upTo)}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

export async function countContacts(db: Executor, workspaceId: number): Promise<number> {
  return countRows(db.selectFrom('contacts').where('workspace_id', '=', workspaceId));
}
