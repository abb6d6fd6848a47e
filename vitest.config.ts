import { defineConfig } from 'vitest/config';

export default defineConfig({
  // graphql ships CJS and ESM builds; Pothos and Yoga load the CJS one, so everything must, or
  // graphql-js sees two realms ("Cannot use GraphQLScalarType from another module").
  resolve: { alias: { graphql: 'graphql/index.js' } },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/postgres-schemas.global.ts'],
    // Tests start real apps and databases; PostgreSQL schemas and SQLite files are per test file.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
