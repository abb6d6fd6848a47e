import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { Presets, SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { createChannelAdapter } from '../channels/registry.js';
import { loadConfig, type Config } from '../config/config.js';
import type { Database, Executor } from '../db/database.js';
import { EXPORT_TASK, getExportFile, startExport } from '../domain/contact-transfers/contact-export.service.js';
import { createContactFileServices, createImportUpload, peekImportHeaders, receiveUpload, resolveContactFile, type ContactFileServices } from '../domain/contact-transfers/contact-file.service.js';
import { getImport, IMPORT_TASK, startImport } from '../domain/contact-transfers/contact-import.service.js';
import { createImportUploadInput, startExportInput, startImportInput, type ContactImport, type ExportFile } from '../domain/contact-transfers/contact-transfer.schema.js';
import { findWorkspace } from '../domain/workspaces/workspace.repository.js';
import { engineDepsOf } from '../engine/context.js';
import { engineTasks } from '../engine/tasks.js';
import { parseOrThrow } from '../errors/validation.js';
import { createImageServices } from '../imaging/image-services.js';
import { createLogger, type Logger } from '../observability/logger.js';
import { jobQueue, prepareJobQueue, startConfiguredRunner, type JobQueue } from '../queue/index.js';
import { CliError, print, withDatabase } from './context.js';
import { commaList, pairs, positiveId } from './parse.js';

/** How often a running import or export is read back for the progress bar. */
const POLL_MS = 200;

/** What a job runner is built from, as src/worker.ts builds it. */
interface ProcessParts {
  database: Database;
  config: Config;
  logger: Logger;
  files: ContactFileServices;
  queue: JobQueue;
}

/** What a command works with: the services' arguments, and a way to run their jobs here. */
interface Transfers {
  db: Executor;
  files: ContactFileServices;
  queue: JobQueue;
  whileRunningJobs: <T>(follow: () => Promise<T>) => Promise<T>;
}

/**
 * Import and export jobs run in this process while `follow` waits for one, so the command needs
 * no server or worker; on SQLite a running server may take the job first, and it is followed all
 * the same. Only these two tasks: every other job is left to the server and workers.
 */
async function whileRunningJobs<T>(p: ProcessParts, follow: () => Promise<T>): Promise<T> {
  const images = createImageServices(p.config, p.database.engine, p.logger);
  try {
    const tasks = engineTasks(engineDepsOf({ ...p, adapter: createChannelAdapter(p.config, p.database.db), images }));
    const runner = await startConfiguredRunner(p.database, p.config, p.logger, { [IMPORT_TASK]: tasks[IMPORT_TASK]!, [EXPORT_TASK]: tasks[EXPORT_TASK]! });
    try {
      return await follow();
    } finally {
      await runner.stop();
    }
  } finally {
    await images.close();
  }
}

/** The database (migrated), the file store and the queue, for a workspace that exists. */
async function withTransfers<T>(workspaceId: number, fn: (t: Transfers) => Promise<T>): Promise<T> {
  const config = loadConfig();
  return withDatabase(async (database) => {
    if (!(await findWorkspace(database.db, workspaceId))) throw new CliError(`No workspace with id ${workspaceId}`);
    // stdout may carry an export's CSV: the jobs' log lines go to stderr, beside the progress.
    const logger = createLogger(config.LOG_LEVEL, process.stderr);
    await prepareJobQueue(database, config, logger);
    const parts: ProcessParts = { database, config, logger, files: createContactFileServices(config, database.engine), queue: jobQueue({ workerSchema: config.WORKER_SCHEMA }) };
    return fn({ db: database.db, files: parts.files, queue: parts.queue, whileRunningJobs: (follow) => whileRunningJobs(parts, follow) });
  });
}

const progressBar = (format: string) =>
  process.stderr.isTTY ? new SingleBar({ format, stream: process.stderr, emptyOnZero: true }, Presets.shades_classic) : null;

interface Progress {
  value: number;
  total: number;
  status: string;
  done: boolean;
}

/** Reads `state` every POLL_MS, drawing its progress, until it is done. */
async function follow<T>(bar: SingleBar | null, state: () => Promise<T>, progress: (s: T) => Progress): Promise<T> {
  bar?.start(0, 0, { status: 'pending' });
  try {
    for (;;) {
      const s = await state();
      const p = progress(s);
      bar?.setTotal(p.total);
      bar?.update(p.value, { status: p.status });
      if (p.done) return s;
      await sleep(POLL_MS);
    }
  } finally {
    bar?.stop();
  }
}

const secondsSince = (started: number) => Math.max((Date.now() - started) / 1000, 0.001);

/** The file into the store as its upload address would take it: a new import file of its exact size. */
async function uploadFile(t: Transfers, workspaceId: number, path: string): Promise<string> {
  const { size } = await stat(path);
  const asked = parseOrThrow(createImportUploadInput, { fileName: basename(path), mimeType: 'text/csv', fileSize: size });
  const { fileId } = await createImportUpload(t.db, t.files, t.queue, workspaceId, asked);
  const file = await resolveContactFile(t.db, workspaceId, 'import', fileId);
  // `end` is inclusive: a file that grew since stat gives one byte too many and is refused as a wrong size, not cut short.
  await receiveUpload(t.db, t.files, file, null, (limit) => createReadStream(path, { end: limit }));
  return fileId;
}

/** `base` with each pair set over it; an empty value takes its key out. */
function overridden(base: Record<string, string | undefined>, overrides: [string, string][]): Record<string, string | undefined> {
  const merged = new Map(Object.entries(base));
  for (const [key, value] of overrides) {
    if (value === '') merged.delete(key);
    else merged.set(key, value);
  }
  return Object.fromEntries(merged);
}

interface ImportFlags {
  workspace: number;
  inbox: number;
  countryCode?: string;
  map: [string, string][];
  field: [string, string][];
  tag?: number;
  json: boolean;
}

/** The import's request: the file's suggested mapping, with the flags over it. */
async function importRequest(t: Transfers, o: ImportFlags, fileId: string) {
  const peek = await peekImportHeaders(t.db, t.files, o.workspace, fileId);
  const fields = overridden(Object.fromEntries(peek.suggestedFieldMapping.map((m) => [m.column, m.customFieldId])), o.field);
  return parseOrThrow(startImportInput, {
    fileId,
    inboxId: String(o.inbox),
    countryCode: o.countryCode,
    columnMap: overridden(peek.suggestedColumnMap, o.map),
    fieldMapping: Object.entries(fields).map(([column, customFieldId]) => ({ column, customFieldId })),
    tagId: o.tag === undefined ? undefined : String(o.tag),
  });
}

const importProgress = (i: ContactImport): Progress => ({
  value: i.processedCount,
  total: i.totalCount ?? 0,
  status: i.status,
  done: i.status === 'completed' || i.status === 'failed',
});

function importSummary(i: ContactImport, seconds: number): string {
  const head = i.status === 'failed' ? `Import ${i.id} of ${i.fileName} failed (${i.errorMessage})` : `Imported ${i.fileName} (import ${i.id})`;
  const counts = `${i.createdCount} created, ${i.updatedCount} updated, ${i.skippedCount} skipped, ${i.failedCount} failed`;
  const errors = i.failedCount + i.skippedCount > 0 ? `; rows not taken: GET /v1/contacts/imports/${i.id}/errors.csv` : '';
  return `${head}: ${counts} of ${i.processedCount} rows in ${seconds.toFixed(1)} s (${Math.round(i.processedCount / seconds)} rows/s)${errors}.`;
}

interface ExportFlags {
  workspace: number;
  fields: string[];
  all?: boolean;
  contacts?: string[];
  out?: string;
  json: boolean;
}

const exportProgress = (f: ExportFile): Progress => ({
  value: f.status === 'ready' ? 1 : 0,
  total: 1,
  status: f.status,
  done: f.status !== 'pending' && f.status !== 'processing',
});

export function contactsCommands(program: Command) {
  const contacts = program.command('contacts').description('Import and export contacts as CSV');

  contacts
    .command('import')
    .description('Import a CSV file of contacts (as POST /v1/contacts/import), running the import here')
    .argument('<file>', 'the CSV file')
    .requiredOption('--workspace <id>', 'workspace id', positiveId)
    .requiredOption('--inbox <id>', 'the inbox every contact joins', positiveId)
    .option('--country-code <code>', 'calling code of phone numbers written without one, e.g. +1')
    .option('--map <field=Column>', 'the column that fills a contact field (contactId, email, phoneNumber, firstName, lastName); empty to leave it out; repeatable', pairs('field=Column', 'first'), [])
    .option('--field <Column=customFieldId>', 'a column that fills a custom field; empty id to leave it out; repeatable', pairs('Column=customFieldId', 'last'), [])
    .option('--tag <id>', 'a tag every contact gets', positiveId)
    .option('--json', 'print the finished import as JSON', false)
    .action(async (path: string, o: ImportFlags) => {
      const started = Date.now();
      const bar = progressBar('importing [{bar}] {value}/{total} rows | {status} | {duration_formatted}');
      const final = await withTransfers(o.workspace, async (t) => {
        const fileId = await uploadFile(t, o.workspace, path);
        const { importId } = await startImport(t.db, t.files, t.queue, o.workspace, await importRequest(t, o, fileId), []);
        return t.whileRunningJobs(() => follow(bar, () => getImport(t.db, o.workspace, importId), importProgress));
      });
      if (o.json) print(true, final, '');
      else console.error(importSummary(final, secondsSince(started)));
      if (final.status === 'failed') process.exitCode = 1;
    });

  contacts
    .command('export')
    .description('Export contacts to CSV (as POST /v1/contacts/export), running the export here')
    .requiredOption('--workspace <id>', 'workspace id', positiveId)
    .requiredOption('--fields <list>', 'comma-separated columns: sys:<field> or cf:<custom field id>', commaList)
    .option('--all', 'every contact of the workspace (the default)')
    .option('--contacts <ids>', 'comma-separated contact ids', commaList)
    .option('--out <file>', 'write the CSV here instead of stdout')
    .option('--json', 'print the export file as JSON (needs --out)', false)
    .action(async (o: ExportFlags) => {
      if (o.json && !o.out) throw new CliError('--json needs --out: without it stdout carries the CSV');
      const started = Date.now();
      const bar = progressBar('exporting [{bar}] {status} | {duration_formatted}');
      const file = await withTransfers(o.workspace, async (t) => {
        const request = parseOrThrow(startExportInput, { fields: o.fields, exportAll: o.all ?? (o.contacts ? undefined : true), contactIds: o.contacts });
        const { fileId } = await startExport(t.db, t.queue, o.workspace, request, []);
        const done = await t.whileRunningJobs(() => follow(bar, () => getExportFile(t.db, t.files, o.workspace, fileId), exportProgress));
        if (done.status !== 'ready') throw new CliError(`Export ${fileId} ${done.status}${done.errorMessage ? `: ${done.errorMessage}` : ''}`);
        // process.stdout belongs to the process: the CSV is written to it, never ends it.
        await pipeline(t.files.store.read(t.db, Number(fileId)), o.out ? createWriteStream(o.out) : process.stdout, { end: o.out !== undefined });
        return done;
      });
      const seconds = secondsSince(started);
      const rows = file.rowCount ?? 0;
      if (o.json) print(true, file, '');
      else console.error(`Exported ${rows} contacts (export file ${file.fileId}) to ${o.out ?? 'stdout'} in ${seconds.toFixed(1)} s (${Math.round(rows / seconds)} rows/s).`);
    });
}
