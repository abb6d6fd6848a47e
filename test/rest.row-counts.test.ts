import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bool } from '../src/db/values.js';
import { testEngine } from './support/engine.js';
import { fixtures } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

/**
 * The pageCount of an unfiltered contact or error-log list comes from the count the database keeps
 * per workspace (migration 2026_11_28_0018), not from counting the rows: it must follow every way
 * rows come and go (the API one at a time, bulk deletes, plain multi-row inserts as imports and the
 * engine make them, a workspace's cascade), and never mix workspaces.
 */
describe('unfiltered list pageCounts from the kept counts', () => {
  let t: TestApp;
  let a: TestWorkspace;
  let b: TestWorkspace;
  const pageCount = async (path: string, ws: TestWorkspace) => {
    const res = await t.request('GET', path, { token: ws.developerToken });
    expect(res.status, path).toBe(200);
    return res.body.pageCount as number;
  };
  const contactsOf = (ws: TestWorkspace) => pageCount('/v1/contacts?perPage=1', ws);
  const logsOf = (ws: TestWorkspace) => pageCount('/v1/error-logs?perPage=1', ws);
  const at = '2026-11-01T10:00:00.000Z';
  const contactRow = (workspaceId: number, i: number) => ({ workspace_id: workspaceId, email: `bulk${i}@example.com`, created_at: at, updated_at: at, gender: 'unknown' as const, email_verified: bool(false), email_opt_in: bool(true) });

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.workspace();
    b = await t.workspace({ name: 'B' });
  });
  afterAll(() => t.close());

  it('counts contacts made and deleted through the API and in bulk, per workspace', async () => {
    expect(await contactsOf(a)).toBe(0);
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await t.request('POST', '/v1/contacts', { token: a.developerToken, body: { email: `api${i}@example.com` } });
      expect(res.status).toBe(200);
      made.push(res.body.data?.id ?? res.body.id);
    }
    // One multi-row insert, as an import writes them.
    await t.db.insertInto('contacts').values(Array.from({ length: 120 }, (_, i) => contactRow(a.id, i))).execute();
    await fixtures(t.db, b.id).contact({ email: 'only@example.com' });
    expect(await contactsOf(a)).toBe(123);
    expect(await contactsOf(b)).toBe(1);

    expect((await t.request('DELETE', `/v1/contacts/${made[0]}`, { token: a.developerToken })).status).toBe(200);
    expect((await t.request('POST', '/v1/contacts/bulk/delete', { token: a.developerToken, body: { contactIds: made.slice(1) } })).status).toBe(200);
    expect(await contactsOf(a)).toBe(120);
    expect(await contactsOf(b)).toBe(1);
    // What a plain count says, for the record.
    const counted = await t.db.selectFrom('contacts').select((eb) => eb.fn.countAll<number>().as('n')).where('workspace_id', '=', a.id).executeTakeFirstOrThrow();
    expect(Number(counted.n)).toBe(120);
  });

  it('counts error logs', async () => {
    const f = fixtures(t.db, a.id);
    for (let i = 0; i < 4; i++) await f.errorLog(`Failure ${i}`);
    expect(await logsOf(a)).toBe(4);
    expect(await logsOf(b)).toBe(0);
    await t.db.deleteFrom('error_logs').where('workspace_id', '=', a.id).where('detail', '=', 'Failure 0').execute();
    expect(await logsOf(a)).toBe(3);
  });

  it('keeps a long history of single inserts short to read', async () => {
    // 100 statements, each its own delta row on PostgreSQL: a reader folds them into one.
    for (let i = 0; i < 100; i++) await t.db.insertInto('contacts').values(contactRow(a.id, 1000 + i)).execute();
    expect(await contactsOf(a)).toBe(220);
    expect(await contactsOf(a)).toBe(220);
    const rows = await t.db.selectFrom('workspace_row_counts').selectAll().where('workspace_id', '=', a.id).where('table_name', '=', 'contacts').execute();
    expect(rows.length).toBeLessThanOrEqual(testEngine === 'postgres' ? 2 : 1);
  });

  it('forgets a deleted workspace, whose cascade counts nothing anywhere', async () => {
    await t.db.deleteFrom('workspaces').where('id', '=', b.id).execute();
    const left = await t.db.selectFrom('workspace_row_counts').selectAll().where('workspace_id', '=', b.id).execute();
    expect(left).toEqual([]);
    expect(await contactsOf(a)).toBe(220);
  });
});
