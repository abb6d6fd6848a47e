import { PostgresAdapter, sql, type ColumnDataType, type CreateTableBuilder, type Kysely } from 'kysely';

/**
 * Contacts in and out as CSV. Frozen in time: imports nothing from src/.
 * - `contact_files`: a CSV file of a workspace, uploaded for an import (`kind` import) or written
 *   by an export (`kind` export), with its state, size, the delimiter found in it, and when its
 *   bytes are deleted (`expires_at`). SQLite deployments keep the bytes in files beside the
 *   database; PostgreSQL in `contact_file_chunks`, so every process reads them.
 * - `contact_imports`: an import of one file: its options (the column map), state and counters.
 *   `records_done` is how many of the file's records are committed: a batch's rows, its error
 *   records and this counter move in one transaction, which is what makes a restarted import go on
 *   from the last committed batch. One import per workspace may be pending or processing (the
 *   partial unique index).
 * - `contact_import_errors`: each row the import did not take, with the cells it had (for the
 *   errors.csv a user fixes and uploads again).
 * - `contact_import_rows`: while an import runs, the first row of the file that wrote each contact
 *   (created, updated, or matched and left unchanged): a later row that finds the same contact is a
 *   repeat of that row. Kept in the database, not in memory, so a 20 MB file costs no memory per
 *   row and a restarted import knows the rows of the batches committed before; deleted when the
 *   import ends.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts: ColumnDataType = pg ? 'timestamptz' : 'text';
  const table = (name: string) => {
    const builder = db.schema.createTable(name);
    return (pg
      ? builder.addColumn('id', 'serial', (c) => c.primaryKey())
      : builder.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())) as CreateTableBuilder<string, any>;
  };
  const workspace = (c: any) => c.notNull().references('workspaces.id').onDelete('cascade');
  const count = (c: any) => c.notNull().defaultTo(0);

  await table('contact_files')
    .addColumn('workspace_id', 'integer', workspace)
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('declared_size', 'integer')
    .addColumn('size', 'integer')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('delimiter', 'text')
    .addColumn('row_count', 'integer')
    .addColumn('request', 'text')
    .addColumn('error_message', 'text')
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('contact_files_workspace_idx').on('contact_files').columns(['workspace_id', 'id']).execute();
  await db.schema.createIndex('contact_files_expiry_idx').on('contact_files').columns(['expires_at']).execute();

  await db.schema
    .createTable('contact_file_chunks')
    .addColumn('file_id', 'integer', (c) => c.notNull().references('contact_files.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('content', pg ? 'bytea' : 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('contact_file_chunks_pk', ['file_id', 'seq'])
    .execute();

  await table('contact_imports')
    .addColumn('workspace_id', 'integer', workspace)
    .addColumn('file_id', 'integer', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('options', 'text', (c) => c.notNull())
    .addColumn('total_count', 'integer')
    .addColumn('records_done', 'integer', count)
    .addColumn('created_count', 'integer', count)
    .addColumn('updated_count', 'integer', count)
    .addColumn('skipped_count', 'integer', count)
    .addColumn('failed_count', 'integer', count)
    .addColumn('error_message', 'text')
    .addColumn('completed_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('contact_imports_workspace_idx').on('contact_imports').columns(['workspace_id', 'id']).execute();
  await db.schema
    .createIndex('contact_imports_one_active_idx')
    .on('contact_imports')
    .columns(['workspace_id'])
    .unique()
    .where(sql.ref('status'), 'in', ['pending', 'processing'])
    .execute();

  await table('contact_import_errors')
    .addColumn('import_id', 'integer', (c) => c.notNull().references('contact_imports.id').onDelete('cascade'))
    .addColumn('file_row', 'integer', (c) => c.notNull())
    .addColumn('column_name', 'text')
    .addColumn('path', 'text')
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('value', 'text')
    .addColumn('matched_contact_id', 'integer')
    .addColumn('cells', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('contact_import_errors_import_idx').on('contact_import_errors').columns(['import_id', 'file_row']).execute();

  await db.schema
    .createTable('contact_import_rows')
    .addColumn('import_id', 'integer', (c) => c.notNull().references('contact_imports.id').onDelete('cascade'))
    .addColumn('contact_id', 'integer', (c) => c.notNull())
    .addColumn('file_row', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('contact_import_rows_pk', ['import_id', 'contact_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('contact_import_rows').execute();
  await db.schema.dropTable('contact_import_errors').execute();
  await db.schema.dropTable('contact_imports').execute();
  await db.schema.dropTable('contact_file_chunks').execute();
  await db.schema.dropTable('contact_files').execute();
}
