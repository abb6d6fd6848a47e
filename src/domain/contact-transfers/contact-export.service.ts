import type { Executor } from '../../db/database.js';
import type { JobQueue } from '../../queue/enqueue.js';
import { checkCondition, checkListFilters } from '../contacts/contact-filter.service.js';
import { compileFilter, keysetOfMatchingContacts } from '../contacts/contact-search.repository.js';
import { findContactsByIds } from '../contacts/contact.repository.js';
import type { ContactScalars } from '../contacts/contact.schema.js';
import type { ContactCondition } from '../contacts/contact-filter.schema.js';
import { customFieldsByIds, valuesOfContactsFields } from '../custom-fields/custom-field.repository.js';
import type { IssuePath } from '../custom-fields/custom-field.service.js';
import { existingContactIds } from '../contacts/contact.repository.js';
import { tagListingsForContacts } from '../tags/tag.repository.js';
import { assertAllExist } from '../tags/tag.service.js';
import { DOWNLOAD_LINK_SECONDS, signedFilePath } from './contact-file-links.js';
import { findContactFile, insertContactFile, markContactFileExpired, updateContactFile } from './contact-file.repository.js';
import { FILE_LIFETIME_MS, fileLinkKey, resolveContactFile, scheduleExpiry, type ContactFileServices } from './contact-file.service.js';
import type { ExportFile, ExportSystemField, StartExportInput } from './contact-transfer.schema.js';
import { csvBytes } from './csv-format.js';

export const EXPORT_TASK = 'contacts.export';
/** Contacts read per statement while an export is written. */
const EXPORT_PAGE = 1000;

/** An export's request as stored with its file (the job reads it back). */
interface ExportRequest {
  fields: string[];
  filter: ContactCondition | null;
  contactIds: number[] | null;
}

/** The header of each system column: the names the import's headers step maps back by itself. */
const systemHeaders: Record<ExportSystemField, string> = {
  id: 'Contact ID',
  firstName: 'First Name',
  lastName: 'Last Name',
  fullName: 'Full Name',
  email: 'Email',
  phoneNumber: 'Phone Number',
  gender: 'Gender',
  locale: 'Locale',
  timezone: 'Timezone',
  country: 'Country',
  state: 'State',
  city: 'City',
  emailOptIn: 'Email Opt-in',
  createdAt: 'Created At',
  updatedAt: 'Updated At',
  tags: 'Tags',
};

/**
 * POST /v1/contacts/export: checks what to export (the filter as the search checks it, 422 at its
 * node; contact ids and custom fields of the workspace, 404 naming the others), then queues the
 * export and answers its file at once (202). The file is written by a job and deleted after 24 h.
 */
export async function startExport(db: Executor, queue: JobQueue, workspaceId: number, input: StartExportInput, at: IssuePath) {
  if (input.filter) await checkCondition(db, workspaceId, input.filter, [...at, 'filter']);
  const contactIds = input.contactIds ? (await assertAllExist(input.contactIds, 'Contact', (keys) => existingContactIds(db, workspaceId, keys))).sort((a, b) => a - b) : null;
  const fieldIds = input.fields.filter((f) => f.startsWith('cf:')).map((f) => f.slice(3));
  await assertAllExist(fieldIds, 'Custom field', async (keys) => (await customFieldsByIds(db, workspaceId, keys)).map((f) => Number(f.id)));

  const request: ExportRequest = { fields: input.fields, filter: input.filter ?? null, contactIds };
  const now = Date.now();
  const file = await db.transaction().execute(async (trx) => {
    const row = await insertContactFile(trx, {
      workspace_id: workspaceId,
      kind: 'export',
      file_name: `contacts-export-${new Date(now).toISOString().slice(0, 10)}.csv`,
      mime_type: 'text/csv',
      declared_size: null,
      status: 'pending',
      request: JSON.stringify(request),
      expires_at: new Date(now + FILE_LIFETIME_MS).toISOString(),
    });
    await queue.enqueue(trx, { task: EXPORT_TASK, payload: { workspaceId, fileId: row.id }, key: `${EXPORT_TASK}:${row.id}`, maxAttempts: 5 });
    await scheduleExpiry(trx, queue, row.id, new Date(now + FILE_LIFETIME_MS));
    return row;
  });
  return { fileId: String(file.id) };
}

/** An export's state; once ready, a download address good for 15 minutes (each call signs a new one). */
export async function getExportFile(db: Executor, files: ContactFileServices, workspaceId: number, fileId: string): Promise<ExportFile> {
  const file = await resolveContactFile(db, workspaceId, 'export', fileId);
  let url: string | null = null;
  if (file.status === 'ready') {
    const expires = Math.floor(Date.now() / 1000) + DOWNLOAD_LINK_SECONDS;
    url = `${files.baseUrl}${signedFilePath(await fileLinkKey(db), { purpose: 'contact-exports', workspaceId, fileId: file.id }, expires)}`;
  }
  return {
    fileId: String(file.id),
    status: file.status as ExportFile['status'],
    rowCount: file.row_count,
    url,
    errorMessage: file.error_message,
    expiresAt: new Date(file.expires_at).toISOString(),
    createdAt: new Date(file.created_at).toISOString(),
  };
}

/** A contact's cell for a system column. */
function systemCell(c: ContactScalars, field: ExportSystemField, tags: string): string {
  switch (field) {
    case 'id':
      return c.id;
    case 'tags':
      return tags;
    case 'emailOptIn':
      return String(c.emailOptIn);
    default:
      return (c[field] as string | null) ?? '';
  }
}

/**
 * Writes an export's file: the header, then the contacts a page of 1,000 at a time (the filter's
 * matches newest first, or the ids given in order), their custom-field values and tags read per
 * page. Streamed to the file store as it goes. A run that stopped midway writes the file anew.
 */
export async function runExport(db: Executor, files: ContactFileServices, workspaceId: number, fileId: number, job: { attempt: number; maxAttempts: number }): Promise<void> {
  const file = await findContactFile(db, workspaceId, 'export', fileId);
  if (!file || !['pending', 'processing'].includes(file.status)) return;
  await updateContactFile(db, fileId, ['pending', 'processing'], { status: 'processing' });
  const request = JSON.parse(file.request!) as ExportRequest;
  try {
    const fieldIds = request.fields.filter((f) => f.startsWith('cf:')).map((f) => Number(f.slice(3)));
    const fields = new Map((await customFieldsByIds(db, workspaceId, fieldIds)).map((f) => [Number(f.id), f]));
    const wantsTags = request.fields.includes('sys:tags');
    const header = request.fields.map((f) => (f.startsWith('cf:') ? (fields.get(Number(f.slice(3)))?.name ?? f) : systemHeaders[f.slice(4) as ExportSystemField]));
    let count = 0;
    async function* rows(): AsyncGenerator<string[]> {
      yield header;
      for await (const page of contactPages(db, workspaceId, request)) {
        const ids = page.map((c) => Number(c.id));
        const values = await valuesOfContactsFields(db, workspaceId, ids, [...fields.keys()]);
        const tags = new Map<string, string[]>();
        if (wantsTags) for (const t of await tagListingsForContacts(db, workspaceId, ids)) tags.set(t.contactId, [...(tags.get(t.contactId) ?? []), t.name]);
        for (const c of page) {
          count++;
          yield request.fields.map((f) => (f.startsWith('cf:') ? (values.get(`${c.id}:${f.slice(3)}`) ?? '') : systemCell(c, f.slice(4) as ExportSystemField, (tags.get(c.id) ?? []).join(', '))));
        }
      }
    }
    const size = await files.store.write(db, fileId, csvBytes(rows()));
    await updateContactFile(db, fileId, ['processing'], { status: 'ready', size, row_count: count });
  } catch (err) {
    if (job.attempt < job.maxAttempts) throw err;
    await updateContactFile(db, fileId, ['processing'], { status: 'failed', error_message: 'The export stopped after an internal error: ask for it again' });
    throw err;
  }
}

async function* contactPages(db: Executor, workspaceId: number, request: ExportRequest): AsyncGenerator<ContactScalars[]> {
  if (request.contactIds) {
    for (let i = 0; i < request.contactIds.length; i += EXPORT_PAGE) {
      const page = await findContactsByIds(db, workspaceId, request.contactIds.slice(i, i + EXPORT_PAGE));
      if (page.length > 0) yield page.sort((a, b) => Number(a.id) - Number(b.id));
    }
    return;
  }
  const checked = request.filter ? (await checkCondition(db, workspaceId, request.filter, ['filter'])).where : await checkListFilters(db, workspaceId, {});
  const filter = compileFilter(db, workspaceId, checked);
  let after: { createdAt: string; id: number } | undefined;
  for (;;) {
    const page = await keysetOfMatchingContacts(db, workspaceId, filter, { limit: EXPORT_PAGE, after });
    if (page.length > 0) yield page;
    if (page.length < EXPORT_PAGE) return;
    const last = page[page.length - 1]!;
    after = { createdAt: last.createdAt, id: Number(last.id) };
  }
}

/** Deletes a file's bytes when its time is up; its record stays, `expired`. */
export async function expireContactFile(db: Executor, files: ContactFileServices, fileId: number): Promise<void> {
  await files.store.delete(db, fileId);
  await markContactFileExpired(db, fileId);
}
