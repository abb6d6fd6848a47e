import type { Executor } from '../../db/database.js';
import { nowIso } from '../../db/values.js';
import type { Logger } from '../../observability/logger.js';
import { JobReleasedError } from '../../queue/types.js';
import { DuplicateContactError } from '../contacts/contact.repository.js';
import { customFieldsByIds, type CustomFieldRecord } from '../custom-fields/custom-field.repository.js';
import { inboxesByIds } from '../inboxes/inbox.repository.js';
import { findLiveTagById } from '../tags/tag.repository.js';
import { findContactFile } from './contact-file.repository.js';
import type { ContactFileServices } from './contact-file.service.js';
import { writeImportBatch, type ImportTarget } from './contact-import-batch.js';
import { readRow, type Candidate, type ImportPlan, type RowError } from './contact-import-rows.js';
import { advanceImport, deleteFirstRows, findContactImport, insertImportErrors, refreshImportStatistics, setImportState, type ContactImportRow } from './contact-import.repository.js';
import type { ImportOptions } from './contact-import.service.js';
import type { ImportColumnKey } from './contact-transfer.schema.js';
import { csvRecords, type CsvRecord, type Delimiter } from './csv-format.js';

/** Rows per transaction: each batch's rows, error records and progress commit together. */
export const IMPORT_BATCH_ROWS = 500;
/** PostgreSQL: the tables a batch reads are analysed again after this many batches (10,000 rows). */
const ANALYZE_EVERY_BATCHES = 20;

export interface ImportJobDeps {
  db: Executor;
  files: ContactFileServices;
  logger: Logger;
}

/** Why an import cannot go on; it fails with this message (no retry would help). */
class ImportStopped extends Error {}

/**
 * Runs an import: counts the file's rows (totalCount), then reads them in batches of 500, each
 * batch one transaction with its contacts, its error records and the import's counters. An import
 * that was stopped (kill -9, a deploy) is run again by the queue and goes on after the last
 * committed batch: the rows before it are passed over, never written twice (what they wrote is in
 * contact_import_rows, so a later repeat of them is still a repeat). `signal` (the process is
 * stopping) ends it between two batches; the queue hands it to the next worker.
 */
export async function runImport(deps: ImportJobDeps, workspaceId: number, importId: number, job: { attempt: number; maxAttempts: number; signal: AbortSignal }): Promise<void> {
  const { db } = deps;
  const found = await findContactImport(db, workspaceId, importId);
  if (!found || found.status === 'completed' || found.status === 'failed') return;
  try {
    await run(deps, found, job.signal);
  } catch (err) {
    if (err instanceof JobReleasedError) throw err;
    const last = err instanceof ImportStopped || job.attempt >= job.maxAttempts;
    if (!last) throw err;
    const message = err instanceof ImportStopped ? err.message : 'The import stopped after an internal error; rows committed before it stay imported';
    await setImportState(db, importId, { status: 'failed', error_message: message, completed_at: nowIso() });
    await deleteFirstRows(db, importId);
    deps.logger.warn({ err, importId, workspaceId }, 'contact import failed');
  }
}

async function run(deps: ImportJobDeps, row: ContactImportRow, signal: AbortSignal): Promise<void> {
  const { db, files } = deps;
  const workspaceId = row.workspace_id;
  const options = JSON.parse(row.options) as ImportOptions;
  const file = await findContactFile(db, workspaceId, 'import', row.file_id);
  if (!file || file.status !== 'uploaded') throw new ImportStopped('The file was deleted before the import could read it: upload it again');
  const delimiter = file.delimiter as Delimiter;
  const records = () => csvRecords(files.store.read(db, file.id), delimiter);

  const [inbox] = await inboxesByIds(db, workspaceId, [options.inboxId]);
  if (!inbox) throw new ImportStopped('The inbox was deleted before the import ran');
  const tag = options.tagId === null ? null : await findLiveTagById(db, workspaceId, options.tagId);
  if (options.tagId !== null && !tag) throw new ImportStopped('The tag was deleted before the import ran');
  const target: ImportTarget = { inbox: { id: Number(inbox.id), channel: inbox.channel }, tag: tag ? { id: Number(tag.id), name: tag.name } : null };
  const fields = new Map((await customFieldsByIds(db, workspaceId, options.fieldMapping.map((m) => m.customFieldId))).map((f) => [Number(f.id), f]));
  const gone = options.fieldMapping.find((m) => !fields.has(m.customFieldId));
  if (gone) throw new ImportStopped(`The custom field ${gone.customFieldId} (column "${gone.column}") was deleted before the import ran`);

  if (row.status === 'pending') await setImportState(db, row.id, { status: 'processing' });
  if (row.total_count === null) {
    let total = 0;
    let header = true;
    for await (const _ of records()) {
      if (header) header = false;
      else total++;
    }
    await setImportState(db, row.id, { total_count: total });
  }

  let plan: ImportPlan | null = null;
  let done = row.records_done;
  let index = 0;
  let batch: CsvRecord[] = [];
  let batches = 0;
  const commit = async () => {
    const records = batch;
    batch = [];
    if (signal.aborted) throw new JobReleasedError();
    if (batches++ % ANALYZE_EVERY_BATCHES === 0) await refreshImportStatistics(db);
    done = await commitBatch(db, row.id, workspaceId, plan!, target, records, done);
  };
  for await (const record of records()) {
    if (plan === null) {
      if (!('cells' in record)) throw new ImportStopped('The header row of the file cannot be read');
      plan = planOf(record.cells.map((c) => c.trim()), options, fields);
      continue;
    }
    // Committed by an earlier run (what it wrote is in contact_import_rows): passed over.
    if (++index <= done) continue;
    batch.push(record);
    if (batch.length >= IMPORT_BATCH_ROWS) await commit();
  }
  if (plan === null) {
    const now = await findContactFile(db, workspaceId, 'import', file.id);
    throw new ImportStopped(now?.status === 'expired' ? 'The file was deleted (24 hours after its upload) before the import read it' : 'The file has no header row');
  }
  if (batch.length > 0) await commit();
  await setImportState(db, row.id, { status: 'completed', completed_at: nowIso() });
  await deleteFirstRows(db, row.id);
}

function planOf(headers: string[], options: ImportOptions, fields: Map<number, CustomFieldRecord>): ImportPlan {
  const indexOf = (column: string) => {
    const i = headers.indexOf(column);
    if (i < 0) throw new ImportStopped(`The file has no column "${column}"`);
    return i;
  };
  return {
    columns: (Object.entries(options.columnMap) as [ImportColumnKey, string | undefined][]).flatMap(([key, column]) => (column === undefined ? [] : [{ key, column, index: indexOf(column) }])),
    fields: options.fieldMapping.map((m) => ({ field: fields.get(m.customFieldId)!, column: m.column, index: indexOf(m.column) })),
    callingCode: options.callingCode,
  };
}

/**
 * One batch: its rows read, the readable ones written, and the counters moved from `from`, all in
 * one transaction. Answers the records done after it.
 */
async function commitBatch(db: Executor, importId: number, workspaceId: number, plan: ImportPlan, target: ImportTarget, records: CsvRecord[], from: number): Promise<number> {
  const errors: RowError[] = [];
  const candidates: Candidate[] = [];
  for (const record of records) {
    if (!('cells' in record)) {
      errors.push({ row: record.row, column: null, path: null, code: 'malformedRow', reason: `The row cannot be read as CSV: ${record.malformed}`, value: null, matchedContactId: null, cells: [] });
      continue;
    }
    const read = readRow(plan, record.row, record.cells);
    if (read.ok) candidates.push(read.candidate);
    else errors.push(read.error);
  }
  const to = from + records.length;
  // A contact created by another request between the batch's reads and its inserts fires a unique
  // index: the batch is run again, and then finds that contact.
  for (let attempt = 1; ; attempt++) {
    try {
      await db.transaction().execute(async (trx) => {
        const result = await writeImportBatch(trx, workspaceId, importId, candidates, target);
        const all = [...errors, ...result.errors].sort((a, b) => a.row - b.row);
        await insertImportErrors(
          trx,
          importId,
          all.map((e) => ({ file_row: e.row, column_name: e.column, path: e.path, code: e.code, reason: e.reason, value: e.value, matched_contact_id: e.matchedContactId, cells: JSON.stringify(e.cells) })),
        );
        const repeats = all.filter((e) => e.code === 'duplicateInFile').length;
        const moved = await advanceImport(trx, importId, from, { recordsDone: to, created: result.created, updated: result.updated, skipped: result.unchanged + repeats, failed: all.length - repeats });
        if (!moved) throw new JobReleasedError();
      });
      return to;
    } catch (err) {
      if (err instanceof DuplicateContactError && attempt < 3) continue;
      throw err;
    }
  }
}
