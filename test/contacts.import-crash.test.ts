import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { createWorkspace } from '../src/domain/workspaces/workspace.service.js';
import { localPath } from './support/contact-files.js';
import { unlimited } from './support/endpoints.js';
import { freshDatabaseUrl, testEngine, type TestDatabaseUrl } from './support/engine.js';
import { fixtures } from './support/fixtures.js';
import { COLUMN_MAP, existingContacts, expectedCounts, importCsv, importRows } from './support/import-files.js';
import { startServer, type RunningServer } from './support/processes.js';
import { storedJobs, waitFor, workerSchemaForTest } from './support/queue.js';

/**
 * kill -9 of a real server process in the middle of an import, then a new process on the same
 * database (SQLite file and its files folder, or PostgreSQL schema). Mid-import is made certain,
 * not timed: a trigger the test installs refuses the insert of one contact of the third batch, so
 * the first two batches commit and the third fails and waits for its retry, for as long as the
 * trigger is there. The process is killed then; the trigger dropped; the new process runs the
 * retry, which must go on after the second batch: every row is done exactly once (the counts, the
 * error records and the contacts and events written are exactly those of an import never stopped),
 * and repeats of rows of the first batches are still recognised as repeats.
 */
describe(`contact import: kill -9 on ${testEngine}`, () => {
  let target: TestDatabaseUrl;
  let database: Database;
  let token: string;
  let workspaceId: number;
  let inbox: number;
  let score: number;
  const workerSchema = workerSchemaForTest();
  const servers: RunningServer[] = [];
  const rows = importRows(3_000);
  /** A good row of the third batch (data rows 1,001 to 1,500). */
  const held = 'new-1010@mail.example';

  const start = () =>
    startServer({ ...unlimited, DATABASE_URL: target.url, WORKER_SCHEMA: workerSchema, SEED_DEMO: 'false', WORKER_POLL_INTERVAL_MS: '100', WORKER_HEARTBEAT_MS: '250' }, { timeoutMs: 60_000 }).then(
      (s) => (servers.push(s), s),
    );
  const call = async (server: RunningServer, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${server.base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, text };
  };
  const importOf = (id: string) => database.db.selectFrom('contact_imports').selectAll().where('id', '=', Number(id)).executeTakeFirstOrThrow();
  const holdInsert = async () => {
    if (database.engine === 'sqlite') {
      await sql`create trigger hold_import before insert on contacts when new.email = ${sql.lit(held)} begin select raise(abort, 'held by the test'); end`.execute(database.db);
    } else {
      await sql`create function hold_import() returns trigger language plpgsql as $$ begin if new.email = ${sql.lit(held)} then raise exception 'held by the test'; end if; return new; end $$`.execute(database.db);
      await sql`create trigger hold_import before insert on contacts for each row execute function hold_import()`.execute(database.db);
    }
  };
  const release = async () => {
    if (database.engine === 'sqlite') await sql`drop trigger hold_import`.execute(database.db);
    else await sql`drop trigger hold_import on contacts`.execute(database.db);
  };
  const importJobs = async () => (await storedJobs(database, workerSchema)).filter((j) => j.task === 'contacts.import');

  beforeAll(async () => {
    target = await freshDatabaseUrl();
    database = createDatabase(target.url);
    await migrateToLatest(database.db);
    const created = await createWorkspace(database.db, { name: 'Import crash' });
    workspaceId = created.workspace.id;
    token = created.tokens.developer.token;
    const f = fixtures(database.db, workspaceId);
    inbox = await f.inbox('Imports');
    score = await f.customField('Score', 'number');
    const now = new Date().toISOString();
    const existing = existingContacts().map((c) => ({ workspace_id: workspaceId, email: c.email, phone_number: c.phone, first_name: c.firstName, last_name: c.lastName, gender: 'unknown' as const, email_verified: 0, email_opt_in: 0, created_at: now, updated_at: now }));
    const ids: number[] = [];
    for (let i = 0; i < existing.length; i += 200) ids.push(...(await database.db.insertInto('contacts').values(existing.slice(i, i + 200)).returning('id').execute()).map((r) => r.id));
    for (const id of ids.slice(200, 400)) await f.contactInbox(id, inbox);
  });
  afterAll(async () => {
    for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
    await Promise.all(servers.map((s) => s.exited));
    await database?.destroy();
    await target?.drop();
  });

  it('goes on from the last committed batch after a restart: every row exactly once', async () => {
    const csv = importCsv(rows);
    const first = await start();
    const asked = await call(first, 'POST', '/v1/contacts/imports/upload-url', { fileName: 'crash.csv', mimeType: 'text/csv', fileSize: Buffer.byteLength(csv) });
    expect(asked.status, asked.text).toBe(201);
    expect((await call(first, 'PUT', localPath(asked.body.presignedPostUrl), csv, { 'content-type': 'text/csv' })).status).toBe(200);
    await holdInsert();
    const started = await call(first, 'POST', '/v1/contacts/import', { fileId: asked.body.fileId, inboxId: String(inbox), countryCode: '+1', columnMap: COLUMN_MAP, fieldMapping: [{ column: 'Score', customFieldId: String(score) }] });
    expect(started.status, started.text).toBe(201);
    const importId: string = started.body.importId;

    // Two batches committed, the third refused and waiting for its retry (not running: no lease to wait out).
    await waitFor('the third batch to fail once', async () => (await importJobs()).some((j) => j.attempts >= 1 && !j.running && j.lastError?.includes('held by the test')), 60_000);
    expect(await importOf(importId)).toMatchObject({ status: 'processing', records_done: 1000, total_count: 3000 });
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');

    await release();
    // Its retry is due at once instead of after the back-off (and only it: the file's expiry is not).
    if (database.engine === 'sqlite') await database.db.updateTable('jobs').set({ run_at: new Date().toISOString() }).where('task', '=', 'contacts.import').execute();
    else {
      const tasks = sql.id(workerSchema, '_private_tasks');
      await sql`update ${sql.id(workerSchema, '_private_jobs')} set run_at = now() where task_id = (select id from ${tasks} where identifier = 'contacts.import')`.execute(database.db);
    }
    const second = await start();
    const final = await waitFor('the import to complete', async () => {
      const res = await call(second, 'GET', `/v1/contacts/imports/${importId}`);
      return res.body.status === 'completed' ? res.body : null;
    }, 60_000).catch(async (err) => {
      throw new Error(`${err.message}; the import: ${JSON.stringify(await importOf(importId))}; its jobs: ${JSON.stringify(await importJobs())}; server: ${second.output().stderr.slice(-3000)}`);
    });

    const want = expectedCounts(rows);
    expect(final).toMatchObject({ totalCount: 3000, processedCount: 3000, createdCount: want.created, updatedCount: want.updated, skippedCount: want.skipped, failedCount: want.failed });
    const records = await database.db.selectFrom('contact_import_errors').select(['file_row', 'code']).where('import_id', '=', Number(importId)).orderBy('file_row').execute();
    expect(records).toEqual(rows.filter((r) => r.outcome.kind === 'failed' || r.outcome.kind === 'repeat').map((r) => ({ file_row: r.row, code: (r.outcome as { code: string }).code })));
    const contacts = await database.db.selectFrom('contacts').select((eb) => eb.fn.countAll<number>().as('n')).where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow();
    expect(Number(contacts.n)).toBe(800 + want.created);
    const made = await database.db.selectFrom('workspace_events').select((eb) => eb.fn.countAll<number>().as('n')).where('workspace_id', '=', workspaceId).where('type', '=', 'newContact').executeTakeFirstOrThrow();
    expect(Number(made.n)).toBe(want.created);
    expect((await call(second, 'GET', `/v1/contacts/email:${held}`)).status).toBe(200);
  }, 180_000);
});
