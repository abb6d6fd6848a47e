import type { Executor } from '../../db/database.js';
import { fetchPage, type Page, type PageRequest } from '../shared/pagination.js';
import { remembered } from '../shared/remembered.js';
import { countErrorLogs, listErrorLogs } from './error-log.repository.js';
import type { ErrorLog } from './error-log.schema.js';

/**
 * The matches a keyword search reaches (docs/rest.md, "Choices where the contract is silent"): its pageCount counts at
 * most these, the newest first, and a page past them is empty. Counting every match of a keyword a
 * third of a million logs hold took seconds; counting up to this many takes milliseconds.
 */
export const SEARCHED_MATCHES = 1000;

/**
 * A keyword found to have more matches than a search reaches is known as such for 15 s, so that
 * the next pages (and the next caller) skip the count: on PostgreSQL the trigram index reads every
 * candidate of a common keyword before it checks the first. Only that verdict is kept, never a
 * count below the bound, so pageCount is exact whenever it says less than the bound.
 */
const commonKeywords = remembered<true>({ forMs: 15_000, max: 1000 });

export async function listErrorLogsPage(db: Executor, workspaceId: number, q: PageRequest & { keyword?: string }): Promise<Page<ErrorLog>> {
  const keyword = q.keyword;
  if (!keyword) return fetchPage(q, () => countErrorLogs(db, workspaceId), (w) => listErrorLogs(db, workspaceId, w));
  const key = `${workspaceId}:${keyword}`;
  let common = commonKeywords.get(db, key) ?? false;
  let total = SEARCHED_MATCHES;
  if (!common) {
    const counted = await countErrorLogs(db, workspaceId, keyword, SEARCHED_MATCHES + 1);
    common = counted > SEARCHED_MATCHES;
    if (common) commonKeywords.set(db, key, true);
    else total = counted;
  }
  return fetchPage(q, async () => total, (w) => listErrorLogs(db, workspaceId, { keyword, ...w, common }));
}
