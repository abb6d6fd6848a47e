// `npm run migrate`: applies all pending migrations to DATABASE_URL.
import { loadConfig } from '../src/config/config.js';
import { createDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrator.js';

const config = loadConfig();
const database = createDatabase(config.DATABASE_URL);
try {
  const applied = await migrateToLatest(database.db);
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
} finally {
  await database.destroy();
}
