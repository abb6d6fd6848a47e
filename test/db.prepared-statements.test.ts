import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inIds, prepared } from '../src/db/prepared.js';
import { countedDatabase } from '../src/db/statement-count.js';
import { createTestApp, type TestApp } from './support/harness.js';
import { fixtures } from './support/fixtures.js';
import { testEngine } from './support/engine.js';

/**
 * Statements compiled once and run with new values (src/db/prepared.ts), on the test engine: each
 * call answers for its own values, in and out of transactions, and a builder that would compile the
 * first call's values into the SQL text fails instead of answering for the wrong row.
 */
describe('prepared statements', () => {
  let t: TestApp;
  let ws: number;
  let other: number;
  const contacts: number[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    ws = (await t.workspace()).id;
    other = (await t.workspace()).id;
    const f = fixtures(t.db, ws);
    for (const name of ['Ada', 'Grace', 'Edsger']) contacts.push(await f.contact({ firstName: name }));
    await fixtures(t.db, other).contact({ firstName: 'Other' });
  });
  afterAll(() => t.close());

  const byId = prepared((db, p: { workspaceId: number; id: number }) => db.selectFrom('contacts').select(['id', 'first_name']).where('workspace_id', '=', p.workspaceId).where('id', '=', p.id));
  const rename = prepared((db, p: { workspaceId: number; id: number; name: string }) =>
    db.updateTable('contacts').set({ first_name: p.name }).where('workspace_id', '=', p.workspaceId).where('id', '=', p.id),
  );

  it('answers each call for its own values', async () => {
    const names = [];
    for (const id of contacts) names.push((await byId.first(t.db, { workspaceId: ws, id }))?.first_name);
    expect(names).toEqual(['Ada', 'Grace', 'Edsger']);
    // The same statement, another workspace: the workspace is a value like any other.
    expect(await byId.first(t.db, { workspaceId: other, id: contacts[0]! })).toBeUndefined();
    expect(await byId.all(t.db, { workspaceId: ws, id: contacts[1]! })).toEqual([{ id: contacts[1], first_name: 'Grace' }]);
  });

  it('runs inside a transaction and counts the rows a write changed', async () => {
    await t.db.transaction().execute(async (trx) => {
      expect(await rename.run(trx, { workspaceId: ws, id: contacts[2]!, name: 'Edsger W.' })).toBe(1);
      expect(await rename.run(trx, { workspaceId: other, id: contacts[2]!, name: 'nobody' })).toBe(0);
      expect((await byId.first(trx, { workspaceId: ws, id: contacts[2]! }))?.first_name).toBe('Edsger W.');
    });
    expect((await byId.first(t.db, { workspaceId: ws, id: contacts[2]! }))?.first_name).toBe('Edsger W.');
  });

  it('inside a transaction, writes with it: a rollback undoes what it wrote', async () => {
    const failed = t.db.transaction().execute(async (trx) => {
      await rename.run(trx, { workspaceId: ws, id: contacts[0]!, name: 'Countess' });
      expect((await byId.first(trx, { workspaceId: ws, id: contacts[0]! }))?.first_name).toBe('Countess');
      throw new Error('changed my mind');
    });
    await expect(failed).rejects.toThrow('changed my mind');
    expect((await byId.first(t.db, { workspaceId: ws, id: contacts[0]! }))?.first_name).toBe('Ada');
  });

  it('counts each run as a statement of the request that made it, in a transaction too', async () => {
    const tally = { statements: 0 };
    const db = countedDatabase(t.db, tally);
    await byId.first(db, { workspaceId: ws, id: contacts[0]! });
    expect(tally.statements).toBe(1);
    await db.transaction().execute(async (trx) => {
      for (const id of contacts) await byId.first(trx, { workspaceId: ws, id });
    });
    // begin, three selects, commit
    expect(tally.statements).toBe(6);
  });

  it('keeps constants the builder wrote and fills in only the values', async () => {
    const named = prepared((db, p: { workspaceId: number; name: string }) =>
      db.selectFrom('contacts').select('first_name').where('workspace_id', '=', p.workspaceId).where('first_name', '=', p.name).where('gender', '=', 'unknown').limit(sql.lit(1)),
    );
    expect(await named.first(t.db, { workspaceId: ws, name: 'Grace' })).toEqual({ first_name: 'Grace' });
    expect(await named.first(t.db, { workspaceId: ws, name: 'Ada' })).toEqual({ first_name: 'Ada' });
  });

  it('refuses a builder whose value does not reach the parameters, before running anything', async () => {
    // Made into a string when built: the first call's value would be in the SQL of every call.
    const stringified = prepared((db, p: { workspaceId: number; name: string }) => db.selectFrom('contacts').select('id').where('workspace_id', '=', p.workspaceId).where('first_name', '=', `${p.name}`));
    await expect(stringified.first(t.db, { workspaceId: ws, name: 'Ada' })).rejects.toThrow('name did not reach the parameters');
    const spread = prepared((db, p: { first_name: string }) => db.insertInto('tags').values({ ...p, workspace_id: 1, name: 'x', created_at: '', updated_at: '' }));
    await expect(spread.run(t.db, { first_name: 'x' })).rejects.toThrow('one by one, by name');
  });

  it('refuses a call without one of the values', async () => {
    await expect(byId.first(t.db, { workspaceId: ws } as { workspaceId: number; id: number })).rejects.toThrow('no value for id');
  });

  it('takes a list of ids of any length as one value, with one SQL text', async () => {
    const named = prepared((db, p: { workspaceId: number; ids: readonly number[] }) =>
      db.selectFrom('contacts').select('first_name').where('workspace_id', '=', p.workspaceId).where(inIds(db, 'id', p.ids)).orderBy('id'),
    );
    expect(await named.all(t.db, { workspaceId: ws, ids: contacts })).toEqual([{ first_name: 'Ada' }, { first_name: 'Grace' }, { first_name: 'Edsger W.' }]);
    expect(await named.all(t.db, { workspaceId: ws, ids: [contacts[1]!] })).toEqual([{ first_name: 'Grace' }]);
    expect(await named.all(t.db, { workspaceId: ws, ids: [] })).toEqual([]);
    // The workspace still scopes the list: another workspace's id answers nothing.
    expect(await named.all(t.db, { workspaceId: other, ids: contacts })).toEqual([]);
    // A list written into the SQL instead of passed as the value is refused.
    const literal = prepared((db, p: { ids: readonly number[] }) => db.selectFrom('contacts').select('id').where(inIds(db, 'id', [...p.ids])));
    await expect(literal.all(t.db, { ids: contacts })).rejects.toThrow(/not iterable|inIds/);
  });

  it('keeps answering when a migration run meanwhile adds a column to a table it reads whole', async () => {
    // On PostgreSQL the statement is prepared on a pooled connection and its plan kept there; a
    // kept plan of `select *` refuses to run once the table has another column. Rolling deploys
    // migrate under running servers: the old process must go on answering.
    const tagsOf = prepared((db, p: { workspaceId: number }) => db.selectFrom('tags').selectAll().where('workspace_id', '=', p.workspaceId).orderBy('id'));
    await fixtures(t.db, other).tag('kept plan');
    // Runs one after another take the same idle pooled connection, where the statement is then
    // prepared; six, so that PostgreSQL may also have switched it to a generic plan (after five).
    for (let i = 0; i < 6; i++) expect((await tagsOf.all(t.db, { workspaceId: other })).map((r) => r.name)).toEqual(['kept plan']);
    await sql`alter table tags add column colour text`.execute(t.db);
    for (let i = 0; i < 3; i++) {
      const rows = (await tagsOf.all(t.db, { workspaceId: other })) as Record<string, unknown>[];
      expect(rows.map((r) => [r.name, r.colour])).toEqual([['kept plan', null]]);
    }
  });

  it.runIf(testEngine === 'postgres')('inside a transaction on PostgreSQL, runs by its name, so the connection parses it once', async () => {
    // The engine's chunk of events runs about twelve statements an event in one transaction:
    // unnamed, PostgreSQL would parse and plan each of them every time.
    const preparedTexts = sql<{ statement: string }>`select statement from pg_prepared_statements`;
    const texts = await t.db.transaction().execute(async (trx) => {
      for (const id of contacts) await byId.first(trx, { workspaceId: ws, id });
      return (await preparedTexts.execute(trx)).rows.map((r) => r.statement);
    });
    expect(texts.filter((text) => /^select "id", "first_name" from "contacts" where "workspace_id" = \$1 and "id" = \$2$/.test(text))).toHaveLength(1);
  });

  it('inside a transaction, keeps answering when a migration run meanwhile adds a column to a table it reads whole', async () => {
    // A kept plan of `select *` would refuse to run, and a transaction cannot run it again
    // unnamed: such a text runs unnamed in transactions (src/db/pg-named-statements.ts).
    const notesOf = prepared((db, p: { workspaceId: number }) => db.selectFrom('contact_notes').selectAll().where('workspace_id', '=', p.workspaceId).orderBy('id'));
    const f = fixtures(t.db, other);
    await f.note(await f.contact({ firstName: 'Noted' }), 'kept plan');
    const inTransaction = () => t.db.transaction().execute(async (trx) => (await notesOf.all(trx, { workspaceId: other })).map((r) => Object.keys(r).length));
    const before = [];
    for (let i = 0; i < 6; i++) before.push(...(await inTransaction()));
    await sql`alter table contact_notes add column colour text`.execute(t.db);
    const after = [];
    for (let i = 0; i < 3; i++) after.push(...(await inTransaction()));
    expect(after).toEqual(before.slice(0, after.length).map((n) => n + 1));
  });

  it("never reads inside another request's open transaction: it waits for the commit, and sees nothing of a rollback", async () => {
    // On SQLite a prepared statement runs at once when the connection is free (database.ts,
    // runOnSqliteNow); while a transaction is open on it, the read must wait its turn.
    let inside!: () => void;
    const opened = new Promise<void>((resolve) => (inside = resolve));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const writer = t.db.transaction().execute(async (trx) => {
      await rename.run(trx, { workspaceId: ws, id: contacts[1]!, name: 'uncommitted' });
      inside();
      await held;
      throw new Error('rolled back');
    });
    await opened;
    const read = byId.first(t.db, { workspaceId: ws, id: contacts[1]! });
    const seen = await Promise.race([read.then((r) => r?.first_name), new Promise((resolve) => setTimeout(() => resolve('still waiting'), 50))]);
    release();
    await expect(writer).rejects.toThrow('rolled back');
    expect((await read)?.first_name).toBe('Grace');
    // On PostgreSQL the read runs on another connection at once and sees the committed name.
    expect(['still waiting', 'Grace']).toContain(seen);
  });
});
