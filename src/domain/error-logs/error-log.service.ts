import type { Executor } from '../../db/database.js';
import { fetchPage, type Page, type PageRequest } from '../shared/pagination.js';
import { countErrorLogs, listErrorLogs } from './error-log.repository.js';
import type { ErrorLog } from './error-log.schema.js';

/**
 * The matches a keyword search reaches (docs/rest.md, "Choices where the contract is silent"): its pageCount counts at
 * most these, the newest first, and a page past them is empty. Counting every match of a keyword a
 * third of a million logs hold took seconds; counting up to this many takes milliseconds.
 */
export const SEARCHED_MATCHES = 1000;

/**
 * How long a keyword found to have more matches than a search reaches is known as such, so that
 * the next pages (and the next caller) skip the count: on PostgreSQL the trigram index reads every
 * candidate of a common keyword before it checks the first. Only that verdict is kept, never a
 * count below the bound, so pageCount is exact whenever it says less than the bound.
 */
const COMMON_FOR_MS = 15_000;
const MAX_REMEMBERED = 1000;

/**
 * Per database (a test process opens many): `workspace:keyword` -> until when it is known common.
 * Keyed by the database's adapter, the one object a request's handle (a statement-counting copy)
 * and a transaction share with the database they come from.
 */
const commonKeywords = new WeakMap<object, Map<string, number>>();

function knownCommon(db: Executor, key: string): boolean {
  const until = commonKeywords.get(db.getExecutor().adapter)?.get(key);
  return until !== undefined && until > Date.now();
}

function rememberCommon(db: Executor, key: string): void {
  const database = db.getExecutor().adapter;
  let known = commonKeywords.get(database);
  if (!known) commonKeywords.set(database, (known = new Map()));
  known.delete(key);
  known.set(key, Date.now() + COMMON_FOR_MS);
  // Oldest first (insertion order): the map never holds more than MAX_REMEMBERED keywords.
  if (known.size > MAX_REMEMBERED) known.delete(known.keys().next().value!);
}

export async function listErrorLogsPage(db: Executor, workspaceId: number, q: PageRequest & { keyword?: string }): Promise<Page<ErrorLog>> {
  const keyword = q.keyword;
  if (!keyword) return fetchPage(q, () => countErrorLogs(db, workspaceId), (w) => listErrorLogs(db, workspaceId, w));
  const key = `${workspaceId}:${keyword}`;
  let common = knownCommon(db, key);
  let total = SEARCHED_MATCHES;
  if (!common) {
    const counted = await countErrorLogs(db, workspaceId, keyword, SEARCHED_MATCHES + 1);
    common = counted > SEARCHED_MATCHES;
    if (common) rememberCommon(db, key);
    else total = counted;
  }
  return fetchPage(q, async () => total, (w) => listErrorLogs(db, workspaceId, { keyword, ...w, common }));
}
