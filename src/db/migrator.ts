import { Migrator, PostgresAdapter, sql, type DatabaseIntrospector, type Kysely, type SchemaMetadata, type TableMetadata } from 'kysely';
import { migrations } from '../../db/migrations/index.js';

/**
 * Kysely's migrator only asks the introspector whether its two bookkeeping tables (and their
 * schema) exist. The PostgreSQL introspector answers that by reading every column of every table
 * of every schema, including `pg_get_serial_sequence()` for each: while another schema of the same
 * database is being migrated, that read fails ("column ... of relation ... does not exist"), so
 * two databases living in separate schemas (tests, several tenants of one server) could not
 * migrate at the same time. This introspector reads only the tables of the one schema, by name.
 */
class SchemaIntrospector implements DatabaseIntrospector {
  constructor(
    private readonly db: Kysely<any>,
    private readonly schema: string,
  ) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace where nspname = ${this.schema}`.execute(this.db);
    return rows;
  }

  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string }>`select tablename as name from pg_catalog.pg_tables where schemaname = ${this.schema}`.execute(this.db);
    // The migrator looks at names only; columns are not read, so none are listed.
    return rows.map(({ name }) => ({ name, schema: this.schema, isView: false, columns: [] }));
  }

  async getMetadata(): Promise<{ tables: TableMetadata[] }> {
    return { tables: await this.getTables() };
  }
}

/**
 * `db` with its introspection limited to `schema`; everything else is the database itself (methods
 * are bound to it: Kysely keeps its state in private fields, which a proxy cannot reach).
 */
const introspectingOnly = (db: Kysely<any>, schema: string): Kysely<any> => {
  const introspection = new SchemaIntrospector(db, schema);
  return new Proxy(db, {
    get(target, key) {
      if (key === 'introspection') return introspection;
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
};

/**
 * The migrator of db/migrations for this database. On PostgreSQL the bookkeeping tables live in
 * the current schema, and only that schema is introspected, so databases that live in separate
 * schemas stay independent.
 */
export async function createMigrator(db: Kysely<any>): Promise<Migrator> {
  const migrationTableSchema =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  return new Migrator({
    db: migrationTableSchema ? introspectingOnly(db, migrationTableSchema) : db,
    provider: { getMigrations: async () => migrations },
    migrationTableSchema,
  });
}

/** Applies every pending migration of db/migrations; throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const { error, results } = await (await createMigrator(db)).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const name = failed ? ` (${failed.migrationName})` : '';
    throw new Error(`Migration failed${name}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return (results ?? []).map((r) => r.migrationName);
}
