import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withStatementCache } from '../src/db/sqlite-statement-cache.js';

/**
 * SQLite statements are prepared once and reused (src/db/database.ts): the same SQL text gets the
 * same statement, the cache stays bounded, and a kept statement still sees schema changes.
 */
describe('SQLite prepared-statement cache', () => {
  let dir: string;
  let sqlite: Database.Database;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'msgapi-stmt-'));
    sqlite = new Database(join(dir, 'cache.db'));
    sqlite.exec('create table t (id integer primary key, name text); insert into t (name) values (\'a\'), (\'b\')');
  });
  afterEach(() => {
    sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reuses the statement of a SQL text it has seen', () => {
    const cached = withStatementCache(sqlite);
    const first = cached.prepare('select name from t order by id');
    expect(cached.prepare('select name from t order by id')).toBe(first);
    expect(cached.prepare('select name from t order by id desc')).not.toBe(first);
    expect(first.all([])).toEqual([{ name: 'a' }, { name: 'b' }]);
  });

  it('keeps at most its size, dropping the least recently used', () => {
    const cached = withStatementCache(sqlite, 2);
    const one = cached.prepare('select 1');
    const two = cached.prepare('select 2');
    expect(cached.prepare('select 1')).toBe(one); // now the most recently used
    cached.prepare('select 3'); // drops "select 2"
    expect(cached.prepare('select 1')).toBe(one);
    expect(cached.prepare('select 2')).not.toBe(two);
  });

  it('answers with the current schema after a migration changed it', () => {
    const cached = withStatementCache(sqlite);
    expect(cached.prepare('select * from t where id = ?').all([1])).toEqual([{ id: 1, name: 'a' }]);
    sqlite.exec("alter table t add column note text default 'n'");
    expect(cached.prepare('select * from t where id = ?').all([1])).toEqual([{ id: 1, name: 'a', note: 'n' }]);
  });

  it('answers the new column names after its own migration renamed one (same number of columns)', () => {
    const cached = withStatementCache(sqlite);
    expect(cached.prepare('select * from t where id = ?').all([2])).toEqual([{ id: 2, name: 'b' }]);
    cached.prepare('alter table t rename column name to label').run([]);
    expect(cached.prepare('select * from t where id = ?').all([2])).toEqual([{ id: 2, label: 'b' }]);
  });

  // Rows are read as arrays and made into objects (sqlite-statement-cache.ts): they must be the
  // objects better-sqlite3 itself answers, in every corner of naming.
  it('answers the same rows as better-sqlite3, whatever the column names', () => {
    const cached = withStatementCache(sqlite);
    const texts = [
      'select id, name from t order by id',
      'select id, name, id as name from t order by id', // a repeated name keeps the last value
      `select name as "a""b", name as "\u2028 x", id as "0", id as "constructor" from t order by id`,
      'select id as "__proto__", name from t order by id',
      'select id from t where id > 5', // no rows
    ];
    const entries = (rows: unknown[]) => rows.map((row) => Object.entries(row as object));
    for (const text of texts) expect(entries(cached.prepare(text).all([]))).toEqual(entries(sqlite.prepare(text).all()));
    expect(cached.prepare("insert into t (name) values ('c') returning id, name").all([])).toEqual([{ id: 3, name: 'c' }]);
    expect(Object.getPrototypeOf(cached.prepare('select id as "__proto__" from t').all([])[0])).toBe(Object.prototype);
  });

  it('yields objects when iterated', () => {
    const cached = withStatementCache(sqlite);
    expect([...cached.prepare('select id, name from t order by id').iterate([])]).toEqual([{ id: 1, name: 'a' }, { id: 2, name: 'b' }]);
  });
});
