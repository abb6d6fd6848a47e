import type { Executor } from '../../db/database.js';
import { fetchPage, type Page, type PageRequest } from '../shared/pagination.js';
import { countErrorLogs, listErrorLogs } from './error-log.repository.js';
import type { ErrorLog } from './error-log.schema.js';

export const listErrorLogsPage = (db: Executor, workspaceId: number, q: PageRequest & { keyword?: string }): Promise<Page<ErrorLog>> =>
  fetchPage(q, () => countErrorLogs(db, workspaceId, q.keyword), (w) => listErrorLogs(db, workspaceId, { keyword: q.keyword, ...w }));
