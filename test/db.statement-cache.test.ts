import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withStatementCache } from '../src/db/database.js';

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
});
