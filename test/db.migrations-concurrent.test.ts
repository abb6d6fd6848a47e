import { NO_MIGRATIONS } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createDatabase } from '../src/db/database.js';
import { createMigrator, migrateToLatest } from '../src/db/migrator.js';
import { freshDatabaseUrl, testEngine } from './support/engine.js';

/**
 * Databases that live in separate schemas of one PostgreSQL database (every test file, or tenants
 * of one server) migrate at the same time without seeing each other. Kysely's own introspector
 * read every schema's columns, and failed ("column ... of relation ... does not exist") whenever
 * another schema was being migrated at that moment: one random test file per full run.
 */
describe.skipIf(testEngine !== 'postgres')('migrations in parallel schemas', () => {
  it('migrate while another schema goes down and up again, again and again', async () => {
    const churnUrl = await freshDatabaseUrl();
    const churn = createDatabase(churnUrl.url);
    const fresh = await Promise.all(Array.from({ length: 6 }, () => freshDatabaseUrl()));
    const databases = fresh.map((f) => createDatabase(f.url));
    try {
      await migrateToLatest(churn.db);
      let stop = false;
      const churning = (async () => {
        const migrator = await createMigrator(churn.db);
        let cycles = 0;
        while (!stop || cycles < 3) {
          expect((await migrator.migrateTo(NO_MIGRATIONS)).error).toBeUndefined();
          expect((await migrator.migrateToLatest()).error).toBeUndefined();
          cycles++;
        }
        return cycles;
      })();
      // One after another, each while the churn runs: every one must apply every migration.
      for (const database of databases) expect((await migrateToLatest(database.db)).length).toBeGreaterThan(0);
      stop = true;
      expect(await churning).toBeGreaterThanOrEqual(3);
    } finally {
      await Promise.all([churn, ...databases].map((d) => d.destroy()));
    }
  });
});
