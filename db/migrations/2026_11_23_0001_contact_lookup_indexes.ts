import { type Kysely, sql } from 'kysely';

/**
 * Contact lookups by email and phone must be index searches on both engines. The first migration
 * made both unique indexes partial (`where email is not null`); SQLite uses a partial index only
 * when the query's own terms prove the index's condition, and `lower(email) = ?` does not prove
 * `email is not null`, so the email lookup scanned every contact of the workspace. Unique indexes
 * already treat NULLs as distinct on both engines, so plain indexes keep the same rule (one
 * contact per email, case-insensitively, and per phone number in a workspace; any number without)
 * and serve every lookup. Frozen in time: imports nothing from src/.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('contacts_workspace_email_uq').execute();
  await db.schema.createIndex('contacts_workspace_email_uq').on('contacts').unique().columns(['workspace_id']).expression(sql`lower(email)`).execute();
  await db.schema.dropIndex('contacts_workspace_phone_uq').execute();
  await db.schema.createIndex('contacts_workspace_phone_uq').on('contacts').unique().columns(['workspace_id', 'phone_number']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('contacts_workspace_email_uq').execute();
  await db.schema
    .createIndex('contacts_workspace_email_uq')
    .on('contacts')
    .unique()
    .columns(['workspace_id'])
    .expression(sql`lower(email)`)
    .where(sql.ref('email'), 'is not', null)
    .execute();
  await db.schema.dropIndex('contacts_workspace_phone_uq').execute();
  await db.schema
    .createIndex('contacts_workspace_phone_uq')
    .on('contacts')
    .unique()
    .columns(['workspace_id', 'phone_number'])
    .where(sql.ref('phone_number'), 'is not', null)
    .execute();
}
