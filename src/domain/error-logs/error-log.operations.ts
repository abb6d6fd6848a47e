import { operation, operationsOf } from '../shared/operation.js';
import { errorLogPageSchema, errorLogsQuery } from './error-log.schema.js';
import { listErrorLogsPage, SEARCHED_MATCHES } from './error-log.service.js';

const reached = SEARCHED_MATCHES.toLocaleString('en');

/** Recent failures in the workspace, scope `error_logs`. */
export const errorLogOperations = operationsOf('Error logs', {
  list: operation({
    id: 'errorLogs.list',
    summary: 'List error logs',
    description: `Error logs, newest first. A \`keyword\` search reaches the newest ${reached} matches: its pageCount counts matches exactly up to ${reached} and stops there, and a page past them is empty (narrow the keyword to reach older logs). Without a keyword, pageCount counts every log.`,
    access: { action: 'read', scope: 'error_logs' },
    query: errorLogsQuery,
    output: errorLogPageSchema,
    outputDescription: 'One page of error logs',
    examples: {
      query: { page: '1', perPage: '20', keyword: 'not reachable' },
      response: {
        data: [
          {
            id: '1',
            workspaceId: '1',
            contactId: '12',
            action: 'sendMessage',
            detail: 'Message failed: recipient is not reachable (code 551)',
            httpCode: '400',
            createdAt: '2026-11-23T11:16:33.712Z',
            updatedAt: '2026-11-23T11:16:33.712Z',
          },
        ],
        pageCount: 1,
      },
    },
    run: ({ db, who, query }) => listErrorLogsPage(db, who.workspaceId, { page: query.page, perPage: query.perPage, keyword: query.keyword }),
  }),
});
