import type { Executor } from '../../db/database.js';
import { idNumber } from '../../db/values.js';
import { AppError, notFound } from '../../errors/catalogue.js';
import { invalidRequestData, type Issue } from '../../errors/validation.js';
import type { JobQueue } from '../../queue/enqueue.js';
import { customFieldsByIds } from '../custom-fields/custom-field.repository.js';
import { inboxesByIds } from '../inboxes/inbox.repository.js';
import { fetchPage, type Page, type PageRequest } from '../shared/pagination.js';
import { findLiveTagById } from '../tags/tag.repository.js';
import { assertAllExist } from '../tags/tag.service.js';
import type { IssuePath } from '../custom-fields/custom-field.service.js';
import { headersOf, resolveContactFile, type ContactFileServices } from './contact-file.service.js';
import {
  allImportErrors,
  countContactImports,
  countImportErrors,
  findContactImport,
  importErrorSamples,
  importErrorsPage,
  ImportInProgressError,
  insertContactImport,
  listContactImports,
  activeImportOf,
  type ContactImportRow,
  type ImportErrorRow,
} from './contact-import.repository.js';
import type { ContactImport, ContactImportError, ImportErrorCode, ImportStatus, StartImportInput } from './contact-transfer.schema.js';
import { csvBytes } from './csv-format.js';

/** The job that reads an import's file. */
export const IMPORT_TASK = 'contacts.import';
/** How many rows errorSample shows. */
export const ERROR_SAMPLE_SIZE = 100;

/** What an import was asked to do, as stored with it (the job reads it back). */
export interface ImportOptions {
  inboxId: number;
  channel: string;
  callingCode: string | undefined;
  columnMap: StartImportInput['columnMap'];
  fieldMapping: { column: string; customFieldId: number }[];
  tagId: number | null;
}

const inProgress = () => new AppError('conflict', { message: 'Another import of this workspace is pending or processing: wait for it to finish', data: { reason: 'importInProgress' } });

/**
 * Step 4: checks the request against the file and the workspace, then queues the import and
 * answers its id at once. The inbox, tag and custom fields must be the workspace's (404 naming
 * them); every column named must be a header of the file (422 at its place in the body, listing
 * the file's columns). One import per workspace runs at a time: another while one is pending or
 * processing is 409 conflict (the database's unique index decides a race).
 */
export async function startImport(db: Executor, files: ContactFileServices, queue: JobQueue, workspaceId: number, input: StartImportInput, at: IssuePath) {
  const file = await resolveContactFile(db, workspaceId, 'import', input.fileId);
  if (await activeImportOf(db, workspaceId)) throw inProgress();
  const [inbox] = await inboxesByIds(db, workspaceId, [idNumber(input.inboxId) ?? -1]);
  if (!inbox) throw notFound('Inbox');
  if (input.channel !== undefined && input.channel !== inbox.channel) {
    throw new AppError('validation', { data: { field: 'channel', reason: 'inboxChannelMismatch' } });
  }
  const tagId = input.tagId === undefined ? null : idNumber(input.tagId);
  if (input.tagId !== undefined && (tagId === null || !(await findLiveTagById(db, workspaceId, tagId)))) throw notFound('Tag');
  await assertAllExist(
    input.fieldMapping.map((m) => m.customFieldId),
    'Custom field',
    async (keys) => (await customFieldsByIds(db, workspaceId, keys)).map((f) => Number(f.id)),
  );

  const headers = new Set(await headersOf(db, files, file));
  const listing = [...headers].map((h) => JSON.stringify(h)).join(', ');
  const issues: Issue[] = [];
  for (const [key, column] of Object.entries(input.columnMap)) {
    if (column !== undefined && !headers.has(column)) issues.push({ message: `The file has no column ${JSON.stringify(column)}; its columns are ${listing}`, path: [...at, 'columnMap', key] });
  }
  input.fieldMapping.forEach((m, i) => {
    if (!headers.has(m.column)) issues.push({ message: `The file has no column ${JSON.stringify(m.column)}; its columns are ${listing}`, path: [...at, 'fieldMapping', i, 'column'] });
  });
  if (issues.length > 0) throw invalidRequestData(issues);

  const options: ImportOptions = {
    inboxId: Number(inbox.id),
    channel: inbox.channel,
    callingCode: input.countryCode?.slice(1),
    columnMap: input.columnMap,
    fieldMapping: input.fieldMapping.map((m) => ({ column: m.column, customFieldId: Number(m.customFieldId) })),
    tagId,
  };
  try {
    const started = await db.transaction().execute(async (trx) => {
      const row = await insertContactImport(trx, { workspace_id: workspaceId, file_id: file.id, file_name: file.file_name, options: JSON.stringify(options) });
      await queue.enqueue(trx, { task: IMPORT_TASK, payload: { workspaceId, importId: row.id }, key: `${IMPORT_TASK}:${row.id}`, maxAttempts: 5 });
      return row;
    });
    return { importId: String(started.id) };
  } catch (err) {
    if (err instanceof ImportInProgressError) throw inProgress();
    throw err;
  }
}

const presentError = (r: ImportErrorRow): ContactImportError => ({
  row: r.file_row,
  column: r.column_name,
  path: r.path,
  code: r.code as ImportErrorCode,
  reason: r.reason,
  value: r.value,
  matchedContactId: r.matched_contact_id === null ? null : String(r.matched_contact_id),
});

function presentImport(row: ContactImportRow, sample: ImportErrorRow[]): ContactImport {
  const processed = row.created_count + row.updated_count + row.skipped_count + row.failed_count;
  return {
    id: String(row.id),
    fileId: String(row.file_id),
    fileName: row.file_name,
    status: row.status,
    totalCount: row.total_count,
    processedCount: processed,
    successCount: row.created_count + row.updated_count,
    failedCount: row.failed_count,
    createdCount: row.created_count,
    updatedCount: row.updated_count,
    skippedCount: row.skipped_count,
    errorMessage: row.error_message,
    errorSample: sample.map((r) => ({ row: r.file_row, reason: r.reason, code: r.code as ImportErrorCode, path: r.path })),
    completedAt: row.completed_at === null ? null : new Date(row.completed_at).toISOString(),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/** Imports with their error samples, in two statements for any number of imports. */
async function presentImports(db: Executor, rows: ContactImportRow[]): Promise<ContactImport[]> {
  const samples = await importErrorSamples(db, rows.map((r) => r.id), ERROR_SAMPLE_SIZE);
  return rows.map((r) => presentImport(r, samples.filter((s) => s.import_id === r.id)));
}

export async function resolveImport(db: Executor, workspaceId: number, id: string): Promise<ContactImportRow> {
  const key = idNumber(id);
  const row = key === null ? null : await findContactImport(db, workspaceId, key);
  if (!row) throw notFound('Import');
  return row;
}

export async function getImport(db: Executor, workspaceId: number, id: string): Promise<ContactImport> {
  return (await presentImports(db, [await resolveImport(db, workspaceId, id)]))[0]!;
}

export async function listImportsPage(db: Executor, workspaceId: number, q: PageRequest & { status?: ImportStatus; keyword?: string }): Promise<Page<ContactImport>> {
  const page = await fetchPage(q, () => countContactImports(db, workspaceId, q), (w) => listContactImports(db, workspaceId, { ...q, ...w }));
  return { data: await presentImports(db, page.data), pageCount: page.pageCount };
}

/** Every row an import did not take, in row order, a page at a time. */
export async function importErrorsOf(db: Executor, workspaceId: number, id: string, p: PageRequest): Promise<Page<ContactImportError> & { total: number }> {
  const row = await resolveImport(db, workspaceId, id);
  let total = 0;
  const page = await fetchPage(
    p,
    async () => (total = await countImportErrors(db, row.id)),
    (w) => importErrorsPage(db, row.id, w.limit, w.offset),
  );
  return { data: page.data.map(presentError), pageCount: page.pageCount, total };
}

/**
 * The rows an import did not take as a CSV to fix and upload again: the file's header, then each
 * such row as it was, with an `error` column saying why (and a `row` column: where it was).
 */
export async function importErrorsCsv(db: Executor, files: ContactFileServices, workspaceId: number, id: string): Promise<{ fileName: string; bytes: AsyncIterable<Uint8Array> }> {
  const row = await resolveImport(db, workspaceId, id);
  const file = await resolveContactFile(db, workspaceId, 'import', String(row.file_id)).catch(() => null);
  // The header comes from the file while it is kept; after that the errors alone have the cells.
  const headers = file && file.status === 'uploaded' ? await headersOf(db, files, file).catch(() => null) : null;
  async function* rows(): AsyncGenerator<string[]> {
    let width = headers?.length ?? 0;
    if (headers) yield [...headers, 'error', 'row'];
    for await (const e of allImportErrors(db, row.id)) {
      const cells = JSON.parse(e.cells) as string[];
      if (!headers && width === 0) {
        width = cells.length;
        yield [...cells.map((_, i) => `column ${i + 1}`), 'error', 'row'];
      }
      const padded = cells.length >= width ? cells : [...cells, ...Array<string>(width - cells.length).fill('')];
      yield [...padded, `${e.code}: ${e.reason}`, String(e.file_row)];
    }
  }
  const base = row.file_name.replace(/\.csv$/i, '');
  return { fileName: `${base}-errors.csv`, bytes: csvBytes(rows()) };
}

