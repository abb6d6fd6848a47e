import { loadConfig } from '../config/config.js';
import { createDatabase, type Database } from '../db/database.js';
import { migrateToLatest } from '../db/migrator.js';
import { AppError } from '../errors/catalogue.js';

/** A failure the operator caused: printed as one line, exit code 1, no stack trace. */
export class CliError extends Error {}

/** Opens DATABASE_URL (migrated), runs `fn`, always closes the database. */
export async function withDatabase<T>(fn: (database: Database) => Promise<T>): Promise<T> {
  const database = createDatabase(loadConfig().DATABASE_URL);
  try {
    await migrateToLatest(database.db);
    return await fn(database);
  } finally {
    await database.destroy();
  }
}

/**
 * Operator-facing text of any error: AppErrors list their issues, name the record that was not
 * found (`User not found`, from `data.resource`), or give their message; others their message.
 */
export function describeError(err: unknown): string {
  if (err instanceof AppError) {
    const data = err.data as { issues?: { message: string; path: (string | number)[] }[]; resource?: string; detail?: string; reason?: string } | undefined;
    if (data?.issues?.length) return data.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ');
    if (err.code === 'notFound' && data?.resource) return `${data.resource} not found`;
    // The contract's messages are generic ("Validation error"); the data says what was wrong.
    const why = data?.detail ?? data?.reason;
    return why ? `${err.message}: ${why}` : err.message;
  }
  return err instanceof Error ? err.message : String(err);
}

export const print = (json: boolean, value: unknown, text: string) => console.log(json ? JSON.stringify(value, null, 2) : text);
