// A peer measured beside the API on PostgreSQL: PostGraphile v4 over the bench database's tables
// as they are, answering the nested contacts page (graphql.cases.ts, peerContactsQuery). It has no
// authentication, rate limits or access log, and no row scoping but the query's own
// `condition: {workspaceId}`: it does less per request than the API. Run by bench/run.ts like
// the bare handler (pinned to CPU 0, PORT and HOST from the environment); alone:
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench PORT=5100 npx tsx bench/peer-postgraphile.ts
// v4, not v5: v5 needs Node 22, the API runs on Node 20.
import { createServer } from 'node:http';
import Module, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import pg from 'pg';

// PostGraphile v4 needs graphql 15; the API's graphql 16 holds node_modules/graphql, so npm gives
// postgraphile and graphile-build-pg a graphql 15 (and a graphile-build) each, and a schema built
// from both fails every query ("Cannot use GraphQLScalarType "Int" from another module or realm").
// In this process every `graphql` and `graphile-build` resolves to postgraphile's own copy.
const require = createRequire(import.meta.url);
const postgraphileDir = dirname(require.resolve('postgraphile/package.json'));
const shared = new Map(['graphql', 'graphile-build'].map((name) => [name, dirname(require.resolve(`${name}/package.json`, { paths: [postgraphileDir] }))]));
const loader = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
const resolveFilename = loader._resolveFilename;
loader._resolveFilename = function (request, ...rest) {
  const [name, ...subpath] = request.split('/');
  const dir = shared.get(name!);
  return resolveFilename.call(this, dir ? join(dir, ...subpath) : request, ...rest);
};
const { postgraphile } = require('postgraphile') as typeof import('postgraphile');

const url = process.env.DATABASE_URL!;
if (!url?.startsWith('postgres')) throw new Error('peer-postgraphile: DATABASE_URL must be a postgres:// URL');

// The API's pool size (src/db/database.ts), so neither server can hold more of PostgreSQL's backends.
const pool = new pg.Pool({ connectionString: url, max: 10 });

// PostGraphile's production settings (its docs' "Production" list): the schema is built once at
// start, nothing is logged per request, JSON columns go out as JSON, one operation per request.
const handler = postgraphile(pool, 'public', {
  watchPg: false,
  graphiql: false,
  enhanceGraphiql: false,
  disableQueryLog: true,
  dynamicJson: true,
  setofFunctionsContainNulls: false,
  legacyRelations: 'omit',
  enableQueryBatching: false,
  retryOnInitFail: false,
  extendedErrors: ['errcode'],
});

const server = createServer(handler);
server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', () => {
  const a = server.address() as { port: number };
  console.log(`postgraphile listening on http://127.0.0.1:${a.port}/graphql`);
});
