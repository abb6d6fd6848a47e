import { sql, type Selectable } from 'kysely';
import { countRows } from '../../db/count.js';
import { isPostgres, type Executor } from '../../db/database.js';
import { uniqueViolation } from '../../db/errors.js';
import type { ContactImportErrorsTable, ContactImportsTable } from '../../db/types.js';
import { likeContains, nowIso } from '../../db/values.js';
import type { ImportStatus } from './contact-transfer.schema.js';

export type ContactImportRow = Selectable<ContactImportsTable>;
export type ImportErrorRow = Omit<Selectable<ContactImportErrorsTable>, 'id' | 'import_id'>;

/** Another import of the workspace is pending or processing (the partial unique index said so). */
export class ImportInProgressError extends Error {}

export async function insertContactImport(db: Executor, row: Pick<ContactImportRow, 'workspace_id' | 'file_id' | 'file_name' | 'options'>): Promise<ContactImportRow> {
  const now = nowIso();
  try {
    return await db
      .insertInto('contact_imports')
      .values({ ...row, status: 'pending', total_count: null, error_message: null, completed_at: null, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (err) {
    if (uniqueViolation(err) !== null) throw new ImportInProgressError();
    throw err;
  }
}

export async function activeImportOf(db: Executor, workspaceId: number): Promise<{ id: number } | null> {
  return (await db.selectFrom('contact_imports').select('id').where('workspace_id', '=', workspaceId).where('status', 'in', ['pending', 'processing']).executeTakeFirst()) ?? null;
}

export async function findContactImport(db: Executor, workspaceId: number, id: number): Promise<ContactImportRow | null> {
  return (await db.selectFrom('contact_imports').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst()) ?? null;
}

const filtered = (db: Executor, workspaceId: number, f: { status?: ImportStatus; keyword?: string }) => {
  let q = db.selectFrom('contact_imports').where('workspace_id', '=', workspaceId);
  if (f.status) q = q.where('status', '=', f.status);
  if (f.keyword) q = q.where(sql<string>`lower(file_name)`, 'like', sql<string>`${likeContains(f.keyword.toLowerCase())} escape '\\'`);
  return q;
};

export const countContactImports = (db: Executor, workspaceId: number, f: { status?: ImportStatus; keyword?: string }) => countRows(filtered(db, workspaceId, f));

export async function listContactImports(db: Executor, workspaceId: number, f: { status?: ImportStatus; keyword?: string; limit: number; offset: number }): Promise<ContactImportRow[]> {
  return filtered(db, workspaceId, f).selectAll().orderBy('id', 'desc').limit(f.limit).offset(f.offset).execute();
}

/** Counts a batch adds, and where the import now stands. */
export interface BatchProgress {
  recordsDone: number;
  created: number;
  updated: number;
  skipped: number;
  failed: number;
}

/**
 * A batch's progress, in the batch's transaction: `records_done` moves from `from` to the batch's
 * end only if no one moved it meanwhile (a second worker on the same import after a lease ran
 * out); false then, and the caller's transaction must be rolled back.
 */
export async function advanceImport(db: Executor, id: number, from: number, p: BatchProgress): Promise<boolean> {
  const result = await db
    .updateTable('contact_imports')
    .set((eb) => ({
      records_done: p.recordsDone,
      created_count: eb('created_count', '+', p.created),
      updated_count: eb('updated_count', '+', p.updated),
      skipped_count: eb('skipped_count', '+', p.skipped),
      failed_count: eb('failed_count', '+', p.failed),
      updated_at: nowIso(),
    }))
    .where('id', '=', id)
    .where('records_done', '=', from)
    .where('status', '=', 'processing')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function setImportState(
  db: Executor,
  id: number,
  set: Partial<Pick<ContactImportRow, 'status' | 'total_count' | 'error_message' | 'completed_at'>>,
): Promise<void> {
  await db.updateTable('contact_imports').set({ ...set, updated_at: nowIso() }).where('id', '=', id).execute();
}

export async function insertImportErrors(db: Executor, importId: number, rows: readonly ImportErrorRow[]): Promise<void> {
  // 9 values a row: 300 rows stay far under either engine's bound on parameters.
  for (let i = 0; i < rows.length; i += 300) {
    await db
      .insertInto('contact_import_errors')
      .values(rows.slice(i, i + 300).map((r) => ({ ...r, import_id: importId })))
      .execute();
  }
}

/** The first `limit` records of each import, in row order (the imports' errorSample). */
export async function importErrorSamples(db: Executor, importIds: readonly number[], limit: number): Promise<(ImportErrorRow & { import_id: number })[]> {
  if (importIds.length === 0) return [];
  const ranked = db
    .selectFrom('contact_import_errors')
    .select(['import_id', 'file_row', 'column_name', 'path', 'code', 'reason', 'value', 'matched_contact_id', 'cells', sql<number>`row_number() over (partition by import_id order by file_row, id)`.as('rank')])
    .where('import_id', 'in', [...importIds]);
  const rows = await db.selectFrom(ranked.as('r')).selectAll().where('rank', '<=', limit).orderBy('import_id').orderBy('rank').execute();
  return rows.map(({ rank: _rank, ...r }) => r);
}

export const countImportErrors = (db: Executor, importId: number) => countRows(db.selectFrom('contact_import_errors').where('import_id', '=', importId));

export async function importErrorsPage(db: Executor, importId: number, limit: number, offset: number): Promise<ImportErrorRow[]> {
  return db
    .selectFrom('contact_import_errors')
    .select(['file_row', 'column_name', 'path', 'code', 'reason', 'value', 'matched_contact_id', 'cells'])
    .where('import_id', '=', importId)
    .orderBy('file_row')
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** Every record of an import in row order, a page of `size` at a time (errors.csv). */
export async function* allImportErrors(db: Executor, importId: number, size = 1000): AsyncGenerator<ImportErrorRow> {
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom('contact_import_errors')
      .select(['id', 'file_row', 'column_name', 'path', 'code', 'reason', 'value', 'matched_contact_id', 'cells'])
      .where('import_id', '=', importId)
      .where('id', '>', after)
      .orderBy('id')
      .limit(size)
      .execute();
    for (const { id: _id, ...r } of rows) yield r;
    if (rows.length < size) return;
    after = rows[rows.length - 1]!.id;
  }
}

/**
 * PostgreSQL plans a batch's lookups (hundreds of ids, emails and phone numbers at once) from the
 * tables' statistics. Without fresh ones (autovacuum off, or behind a load this large) it reads the
 * whole workspace for each, orders of magnitude slower than after ANALYZE (bench/README.md): a bulk
 * load refreshes them itself, at its start and as it grows the tables. SQLite keeps to the unique
 * indexes without statistics.
 */
export async function refreshImportStatistics(db: Executor): Promise<void> {
  if (isPostgres(db)) await sql`analyze contacts, contact_custom_fields, contact_import_rows`.execute(db);
}

/** The rows of the file that first wrote these contacts, for those an earlier batch wrote. */
export async function firstRowsOf(db: Executor, importId: number, contactIds: readonly number[]): Promise<Map<number, number>> {
  if (contactIds.length === 0) return new Map();
  const rows = await db.selectFrom('contact_import_rows').select(['contact_id', 'file_row']).where('import_id', '=', importId).where('contact_id', 'in', [...contactIds]).execute();
  return new Map(rows.map((r) => [r.contact_id, r.file_row]));
}

export async function insertFirstRows(db: Executor, importId: number, rows: ReadonlyMap<number, number>): Promise<void> {
  const all = [...rows].map(([contact_id, file_row]) => ({ import_id: importId, contact_id, file_row }));
  for (let i = 0; i < all.length; i += 1000) await db.insertInto('contact_import_rows').values(all.slice(i, i + 1000)).execute();
}

export async function deleteFirstRows(db: Executor, importId: number): Promise<void> {
  await db.deleteFrom('contact_import_rows').where('import_id', '=', importId).execute();
}
