import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Config } from '../../config/config.js';
import type { Engine, Executor } from '../../db/database.js';
import { idNumber } from '../../db/values.js';
import { AppError, notFound } from '../../errors/catalogue.js';
import type { JobQueue } from '../../queue/enqueue.js';
import { listCustomFields } from '../custom-fields/custom-field.repository.js';
import { serviceSecret } from '../shared/service-secret.js';
import { FILES_PREFIX, signedFilePath, UPLOAD_LINK_SECONDS, verifyFileLink, type FilePurpose } from './contact-file-links.js';
import { findContactFile, findContactFileById, insertContactFile, updateContactFile, type ContactFileRow } from './contact-file.repository.js';
import { databaseFileStore, diskFileStore, type FileStore } from './contact-file.store.js';
import { headerKey, suggestColumnMap } from './contact-import-rows.js';
import type { CreateImportUploadInput } from './contact-transfer.schema.js';
import { csvRecords, csvText, detectDelimiter, type Delimiter } from './csv-format.js';

/** The file store and the address signed links start with (PUBLIC_BASE_URL). */
export interface ContactFileServices {
  store: FileStore;
  baseUrl: string;
}

/**
 * Where contact files go: PostgreSQL keeps them in the database (every process reads them); a
 * SQLite deployment in `files/` beside its database file (CONTACT_FILE_DIR to choose), an
 * in-memory database in the temporary directory. Links start with PUBLIC_BASE_URL.
 */
export function createContactFileServices(config: Config, engine: Engine): ContactFileServices {
  const baseUrl = config.PUBLIC_BASE_URL ?? `http://localhost:${config.PORT}`;
  if (engine === 'postgres') return { store: databaseFileStore(), baseUrl };
  const dir = config.CONTACT_FILE_DIR ?? (config.DATABASE_URL === ':memory:' ? join(tmpdir(), `msgapi-files-${process.pid}`) : join(dirname(config.DATABASE_URL), 'files'));
  return { store: diskFileStore(dir), baseUrl };
}

/** A file's bytes are deleted this long after it was made (an upload, an export). */
export const FILE_LIFETIME_MS = 24 * 3600 * 1000;
/** The key that signs file addresses (service-secret.ts). */
export const fileLinkKey = (db: Executor) => serviceSecret(db, 'contactFileLinks');
/** The job that deletes a file's bytes when its time is up. */
export const EXPIRE_FILE_TASK = 'contacts.expireFile';

const seconds = (ms: number) => Math.floor(ms / 1000);

/** The job that deletes a file's bytes at `at`, in the transaction that made the file. */
export async function scheduleExpiry(trx: Executor, queue: JobQueue, fileId: number, at: Date): Promise<void> {
  await queue.enqueue(trx, { task: EXPIRE_FILE_TASK, payload: { fileId }, runAt: at, key: `${EXPIRE_FILE_TASK}:${fileId}` });
}

/**
 * Step 1 of an import: a file record waiting for its bytes and the signed address to PUT them to
 * (good for 15 minutes). Its bytes are deleted after 24 hours (a job due then).
 */
export async function createImportUpload(db: Executor, files: ContactFileServices, queue: JobQueue, workspaceId: number, input: CreateImportUploadInput) {
  const now = Date.now();
  const file = await db.transaction().execute(async (trx) => {
    const row = await insertContactFile(trx, {
      workspace_id: workspaceId,
      kind: 'import',
      file_name: input.fileName,
      mime_type: input.mimeType,
      declared_size: input.fileSize,
      status: 'awaitingUpload',
      request: null,
      expires_at: new Date(now + FILE_LIFETIME_MS).toISOString(),
    });
    await scheduleExpiry(trx, queue, row.id, new Date(now + FILE_LIFETIME_MS));
    return row;
  });
  const expires = seconds(now) + UPLOAD_LINK_SECONDS;
  const path = signedFilePath(await fileLinkKey(db), { purpose: 'contact-imports', workspaceId, fileId: file.id }, expires);
  return { fileId: String(file.id), presignedPostUrl: `${files.baseUrl}${path}`, expiresAt: new Date(expires * 1000).toISOString() };
}

/** A file of the workspace by its id as sent, or 404 (another workspace's file is not there). */
export async function resolveContactFile(db: Executor, workspaceId: number, kind: ContactFileRow['kind'], id: string): Promise<ContactFileRow> {
  const key = idNumber(id);
  const file = key === null ? null : await findContactFile(db, workspaceId, kind, key);
  if (!file) throw notFound(kind === 'import' ? 'Import file' : 'Export file');
  return file;
}

/** The file named by a signed address, once its signature and expiry are checked (403 otherwise). */
export async function fileOfSignedLink(db: Executor, purpose: FilePurpose, fileId: number, search: string): Promise<ContactFileRow> {
  const file = await findContactFileById(db, fileId);
  const kind = purpose === 'contact-imports' ? 'import' : 'export';
  // An unknown file is refused as a bad signature is: the address says nothing about which files exist.
  const check = file && file.kind === kind ? verifyFileLink(await fileLinkKey(db), { purpose, workspaceId: file.workspace_id, fileId }, search, seconds(Date.now())) : null;
  if (!check || !check.ok) throw new AppError('FORBIDDEN', { data: { reason: check && !check.ok ? check.reason : 'The signature does not match this file' } });
  return file!;
}

/** Bytes kept of an upload's start, to find its delimiter. */
const HEAD_BYTES = 64 * 1024;

/**
 * Step 1b: the bytes of an import file, streamed to the store as they arrive. The file takes
 * exactly the size its upload address was asked for: a Content-Length that differs is 422 before
 * anything is read, more bytes than that is 413 as soon as they pass it, fewer is 422 once the
 * body ends; nothing is kept then and the same address may be used again. A file uploaded once is
 * 409 conflict.
 */
export async function receiveUpload(db: Executor, files: ContactFileServices, file: ContactFileRow, declaredLength: string | null, body: (limit: number) => AsyncIterable<Uint8Array>) {
  const size = file.declared_size!;
  if (file.status !== 'awaitingUpload') {
    throw new AppError('conflict', { message: file.status === 'expired' ? 'The file was deleted: ask for a new upload address' : 'The file was uploaded already; ask for a new upload address to send another', data: { reason: 'alreadyUploaded' } });
  }
  if (declaredLength !== null && Number(declaredLength) > size) throw new AppError('payloadTooLarge', { data: { limitBytes: size } });
  const mismatch = (got: number) => new AppError('validation', { data: { field: 'fileSize', reason: 'sizeMismatch', expected: size, received: got, detail: `The upload must be exactly ${size} bytes (the fileSize asked for); it was ${got}` } });
  if (declaredLength !== null && Number(declaredLength) !== size) throw mismatch(Number(declaredLength));
  // One upload at a time: the first to move the file to `uploading` writes it.
  if (!(await updateContactFile(db, file.id, ['awaitingUpload'], { status: 'uploading' }))) throw new AppError('conflict', { message: 'Another upload of this file is under way', data: { reason: 'uploadInProgress' } });
  const head: Buffer[] = [];
  let headBytes = 0;
  async function* tee(): AsyncGenerator<Uint8Array> {
    for await (const chunk of body(size)) {
      if (headBytes < HEAD_BYTES) {
        head.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        headBytes += chunk.byteLength;
      }
      yield chunk;
    }
  }
  let written: number;
  try {
    written = await files.store.write(db, file.id, tee());
    if (written !== size) throw mismatch(written);
  } catch (err) {
    await files.store.delete(db, file.id);
    await updateContactFile(db, file.id, ['uploading'], { status: 'awaitingUpload' });
    throw err;
  }
  const delimiter = detectDelimiter(Buffer.concat(head).toString('utf8').replace(/^\ufeff/, ''));
  await updateContactFile(db, file.id, ['uploading'], { status: 'uploaded', size: written, delimiter });
  return { fileId: String(file.id), size: written };
}

/** An uploaded import file, or 422 naming the state it is in (not uploaded yet, deleted). */
export function assertUploaded(file: ContactFileRow): void {
  if (file.status === 'uploaded') return;
  const detail = file.status === 'expired' ? 'The file was deleted (24 hours after it was uploaded): upload it again' : 'The file has not been uploaded yet: PUT its bytes to the presignedPostUrl first';
  throw new AppError('validation', { data: { field: 'fileId', reason: file.status === 'expired' ? 'fileExpired' : 'fileNotUploaded', detail } });
}

/** The header row of an uploaded import file (its first record), or 422 when the file has none. */
export async function headersOf(db: Executor, files: ContactFileServices, file: ContactFileRow): Promise<string[]> {
  assertUploaded(file);
  for await (const record of csvRecords(files.store.read(db, file.id), file.delimiter as Delimiter)) {
    if ('cells' in record) return record.cells.map((c) => c.trim());
    break;
  }
  throw new AppError('validation', { data: { field: 'fileId', reason: 'noHeaderRow', detail: 'The file has no header row: its first line must name the columns' } });
}

/**
 * Step 2: the file's columns, the contact field each looks like (names compared without case,
 * spaces or dashes, with common aliases: e-mail, phone number, first name, surname), and the
 * custom fields whose names match a column.
 */
export async function peekImportHeaders(db: Executor, files: ContactFileServices, workspaceId: number, fileId: string) {
  const file = await resolveContactFile(db, workspaceId, 'import', fileId);
  const headers = await headersOf(db, files, file);
  const fields = await listCustomFields(db, workspaceId, { limit: 1000, offset: 0 });
  const byName = new Map(fields.map((f) => [headerKey(f.name), f.id]));
  const suggestedColumnMap = suggestColumnMap(headers);
  const mapped = new Set(Object.values(suggestedColumnMap));
  const suggestedFieldMapping = headers.flatMap((column) => {
    const id = mapped.has(column) ? undefined : byName.get(headerKey(column));
    return id === undefined ? [] : [{ column, customFieldId: id }];
  });
  return { headers, suggestedColumnMap, suggestedFieldMapping, delimiter: file.delimiter as Delimiter };
}

/** An example value of a custom field's type, for the template's second row. */
const exampleOf: Record<string, (options: string[] | null) => string> = {
  shortText: () => 'text',
  longText: () => 'a longer text',
  number: () => '42',
  boolean: () => 'true',
  date: () => '2026-03-01',
  datetime: () => '2026-03-01T09:00:00Z',
  email: () => 'work@mail.example',
  phone: () => '+14155550124',
  url: () => 'https://example.com',
  select: (options) => options?.[0] ?? '',
};

/**
 * Step 0: a CSV a user fills in: the contact fields an import matches and creates by, then the
 * workspace's custom fields by name, and an example row. Its headers are the ones the headers step
 * maps by itself.
 */
export async function importTemplate(db: Executor, workspaceId: number) {
  const fields = await listCustomFields(db, workspaceId, { limit: 1000, offset: 0 });
  const header = ['First Name', 'Last Name', 'Email', 'Phone Number', ...fields.map((f) => f.name)];
  const example = ['Ada', 'Lovelace', 'ada.lovelace@mail.example', '+14155550123', ...fields.map((f) => (exampleOf[f.type] ?? (() => ''))(f.options))];
  return { fileName: 'contacts-import-template.csv', mimeType: 'text/csv' as const, content: csvText([header, example]) };
}

export { FILES_PREFIX };
