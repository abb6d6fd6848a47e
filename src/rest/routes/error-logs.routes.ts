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
    handler: ({ db, who, query }) => listErrorLogsPage(db, who.workspaceId, query),
  }),
];
