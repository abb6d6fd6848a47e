import type { Executor } from '../../db/database.js';
import { nowIso } from '../../db/values.js';

/** Stores `value` (hex) under `name` unless a secret of that name is there: the first writer's stays. */
export async function insertServiceSecret(db: Executor, name: string, value: string): Promise<void> {
  await db
    .insertInto('service_secrets')
    .values({ name, value, created_at: nowIso() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}

/** The secret stored under `name` (hex); throws when there is none. */
export async function findServiceSecret(db: Executor, name: string): Promise<string> {
  const row = await db.selectFrom('service_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value;
}
