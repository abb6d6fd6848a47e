import type { SqliteDatabase as SqliteDialectDatabase, SqliteStatement } from 'kysely';
import type SqliteDatabase from 'better-sqlite3';

type Row = Record<string, unknown>;
type RowMaker = (values: unknown[]) => Row;

// DDL through this connection (our migrations) changes what `select *` answers: the row makers
// are dropped with the statements.
const ddl = /^\s*(create|alter|drop)\b/i;

/**
 * Kysely's SQLite driver prepares every statement anew, and preparing costs more than running most
 * of our queries (a large part of a cheap read). The API sends the same few
 * hundred SQL texts over and over, so prepared statements are kept, least recently used dropped
 * first. Reuse is safe: the driver runs one statement at a time on its single connection, and
 * SQLite re-prepares a kept statement by itself when the schema changes.
 *
 * Rows are read as arrays and made into objects by a function compiled once per column list:
 * better-sqlite3 builds each row object property by property, which costs more than the query
 * itself for a wide page (figures in bench/README.md).
 */
export function withStatementCache(sqlite: SqliteDatabase.Database, size = 500): SqliteDialectDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      let statement = statements.get(text);
      if (statement) {
        statements.delete(text);
      } else {
        if (ddl.test(text)) statements.clear();
        const prepared = sqlite.prepare(text);
        statement = prepared.reader ? readerOf(prepared) : prepared;
        if (statements.size >= size) statements.delete(statements.keys().next().value!);
      }
      statements.set(text, statement);
      return statement;
    },
  };
}

/** A reader whose rows come as arrays, made into the objects better-sqlite3 would have answered. */
function readerOf(statement: SqliteDatabase.Statement): SqliteStatement {
  let names = columnNames(statement);
  let make = rowMaker(names);
  if (!make) return statement;
  statement.raw(true);
  // SQLite re-prepares a kept statement after a schema change made elsewhere (another connection,
  // or `exec`): a `select *` then answers another number of columns, and the maker is built again.
  const rowsOf = (values: unknown[][]): Row[] => {
    if (values.length > 0 && values[0].length !== names.length) {
      names = columnNames(statement);
      make = rowMaker(names) ?? ((row) => Object.fromEntries(names.map((name, i) => [name, row[i]])));
    }
    const rows = new Array<Row>(values.length);
    for (let i = 0; i < values.length; i++) rows[i] = make!(values[i]);
    return rows;
  };
  return {
    reader: true,
    all: (parameters) => rowsOf(statement.all(parameters as unknown[]) as unknown[][]),
    run: (parameters) => statement.run(parameters as unknown[]),
    *iterate(parameters) {
      for (const values of statement.iterate(parameters as unknown[])) yield rowsOf([values as unknown[]])[0];
    },
  };
}

const columnNames = (statement: SqliteDatabase.Statement) => statement.columns().map((column) => column.name);

/**
 * `values => ({ "name": values[0], ... })`: one object literal, so every row gets the same shape at
 * once (a duplicated name keeps its last value, as better-sqlite3's objects do). Names are written
 * as JSON string literals; `__proto__` would set the prototype instead, so such a statement keeps
 * better-sqlite3's own objects.
 */
function rowMaker(names: string[]): RowMaker | null {
  if (names.includes('__proto__')) return null;
  const properties = names.map((name, i) => `${JSON.stringify(name)}: values[${i}]`).join(', ');
  return new Function('values', `return { ${properties} };`) as RowMaker;
}
