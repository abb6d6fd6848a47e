import { errorLogPageSchema, errorLogsQuery } from '../../domain/error-logs/error-log.schema.js';
import { listErrorLogsPage } from '../../domain/error-logs/error-log.service.js';
import { defineRoute } from '../route.js';

export const errorLogRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/error-logs',
    operationId: 'errorLogs.list',
    summary: 'Error logs, newest first',
    tag: 'Error logs',
    access: { action: 'read', scope: 'error_logs' },
    query: errorLogsQuery,
    response: { status: 200, description: 'One page of error logs', schema: errorLogPageSchema },
    errors: [400, 401, 403, 422, 429, 500],
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
    handler: ({ db, who, query }) => listErrorLogsPage(db, who.workspaceId, query),
  }),
];
