// `npm run schema:print` writes schema.graphql from the Pothos schema (sorted, so the file only
// changes when the schema does); `npm run schema:check` (--check) fails when the committed file is
// stale. Importing the schema builds types only: no server starts and no database is opened.
// An optional path names another file (the tooling test checks a stale copy).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { printSchema } from 'graphql';
import { schema } from '../src/graphql/schema.js';

const [path] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const target = path ?? fileURLToPath(new URL('../schema.graphql', import.meta.url));
const printed = `${printSchema(schema)}\n`;

if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(target, 'utf8');
  } catch {
    /* missing counts as stale */
  }
  if (committed !== printed) {
    console.error(`${path ?? 'schema.graphql'} is stale: it does not match the Pothos schema in src/graphql.`);
    console.error('Run `npm run schema:print` (then `npm run codegen`) and commit the result.');
    process.exit(1);
  }
  console.log(`${path ?? 'schema.graphql'} is current.`);
} else {
  writeFileSync(target, printed);
  console.log(`Wrote ${target}`);
}
