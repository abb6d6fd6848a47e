import { isPostgres, type Executor } from '../../db/database.js';
import { countRows } from '../../db/count.js';
import { idString, parseJson } from '../../db/values.js';
import type { LeadForm, LeadPage, LeadQuestion } from './lead-page.schema.js';

/** Connected pages and their lead forms: read here, written by the demo data and (later) the engine. */

const pageColumns = ['p.id', 'p.external_id', 'p.name', 'p.inbox_id', 'p.created_at', 'p.updated_at'] as const;

export async function countLeadPages(db: Executor, workspaceId: number): Promise<number> {
  return countRows(db.selectFrom('lead_pages').where('workspace_id', '=', workspaceId));
}

/** A page of the workspace's pages in the order they were connected, each with its count of forms (one statement). */
export async function listLeadPages(db: Executor, workspaceId: number, window: { limit: number; offset: number }): Promise<LeadPage[]> {
  const rows = await db
    .selectFrom('lead_pages as p')
    .select(pageColumns)
    .select((eb) => eb.selectFrom('lead_forms as f').whereRef('f.lead_page_id', '=', 'p.id').select((e) => e.fn.countAll<number>().as('n')).as('forms_count'))
    .where('p.workspace_id', '=', workspaceId)
    .orderBy('p.id')
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return rows.map((r) => ({
    id: r.external_id,
    name: r.name,
    inboxId: r.inbox_id === null ? null : idString(r.inbox_id),
    formsCount: Number(r.forms_count ?? 0),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }));
}

/**
 * The page's row id by its network id, or null when the workspace has no such page. With `lock`
 * (inside a transaction), PostgreSQL holds the row until commit: writers of the page's form claims
 * take turns. SQLite runs one writer at a time anyway.
 */
export async function findLeadPageRowId(db: Executor, workspaceId: number, externalId: string, opts: { lock?: boolean } = {}): Promise<number | null> {
  let q = db.selectFrom('lead_pages').select('id').where('workspace_id', '=', workspaceId).where('external_id', '=', externalId);
  if (opts.lock && isPostgres(db)) q = q.forUpdate();
  return (await q.executeTakeFirst())?.id ?? null;
}

const formColumns = ['f.id', 'f.external_id', 'f.name', 'f.status', 'f.questions', 'f.created_at', 'f.updated_at', 'p.external_id as page_external_id'] as const;

type FormRow = { external_id: string; name: string; status: 'active' | 'archived'; questions: string; created_at: string; updated_at: string; page_external_id: string };

const toForm = (r: FormRow): LeadForm => ({
  id: r.external_id,
  pageId: r.page_external_id,
  name: r.name,
  status: r.status,
  questions: parseJson<LeadQuestion[]>(r.questions),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const formsOf = (db: Executor, workspaceId: number) =>
  db.selectFrom('lead_forms as f').innerJoin('lead_pages as p', 'p.id', 'f.lead_page_id').where('f.workspace_id', '=', workspaceId).where('p.workspace_id', '=', workspaceId);

export async function countLeadForms(db: Executor, workspaceId: number, pageRowId: number): Promise<number> {
  return countRows(db.selectFrom('lead_forms').where('workspace_id', '=', workspaceId).where('lead_page_id', '=', pageRowId));
}

/** A page of one page's forms in the order they were created (lead_forms_page_idx). */
export async function listLeadForms(db: Executor, workspaceId: number, pageRowId: number, window: { limit: number; offset: number }): Promise<LeadForm[]> {
  const rows = await formsOf(db, workspaceId).select(formColumns).where('f.lead_page_id', '=', pageRowId).orderBy('f.id').limit(window.limit).offset(window.offset).execute();
  return rows.map(toForm);
}

/** Every form of one page (to check an automation's form ids and question keys). */
export async function allFormsOfPage(db: Executor, workspaceId: number, pageRowId: number): Promise<LeadForm[]> {
  const rows = await formsOf(db, workspaceId).select(formColumns).where('f.lead_page_id', '=', pageRowId).orderBy('f.id').execute();
  return rows.map(toForm);
}

/** Every form of many pages (by network page id) in one statement, in creation order. */
export async function formsOfPages(db: Executor, workspaceId: number, pageIds: readonly string[]): Promise<LeadForm[]> {
  if (pageIds.length === 0) return [];
  const rows = await formsOf(db, workspaceId).select(formColumns).where('p.external_id', 'in', [...pageIds]).orderBy('f.id').execute();
  return rows.map(toForm);
}
