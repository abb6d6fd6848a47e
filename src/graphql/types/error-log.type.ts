import { errorLogOperations as errorLogs } from '../../domain/error-logs/error-log.operations.js';
import { SEARCHED_MATCHES } from '../../domain/error-logs/error-log.service.js';
import type { ErrorLog } from '../../domain/error-logs/error-log.schema.js';
import { builder } from '../builder.js';
import { nodeOptions, rawIdField } from '../node.js';
import { runOperation } from '../operations.js';
import { pageArgs, pageArgsSchema, pageComplexity, pageOf } from '../page.js';

export const ErrorLogType = builder.node(builder.objectRef<ErrorLog>('ErrorLog'), {
  ...nodeOptions('ErrorLog', errorLogs.list.access, ({ loaders }) => loaders.errorLog),
  description: 'A recent failure in the workspace.',
  fields: (t) => ({
    rawId: rawIdField(t),
    workspaceId: t.exposeID('workspaceId'),
    contactId: t.exposeString('contactId', { description: 'Digit-string id of the contact, or "" when none' }),
    action: t.exposeString('action'),
    detail: t.exposeString('detail'),
    httpCode: t.exposeString('httpCode'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

builder.queryField('errorLogs', (t) =>
  t.field({
    type: pageOf('ErrorLogPage', ErrorLogType),
    description: `Like GET /v1/error-logs: newest first; \`keyword\` is a case-insensitive substring of the message (detail or action), and a keyword search reaches its newest ${SEARCHED_MATCHES.toLocaleString('en')} matches (pageCount stops there).`,
    access: errorLogs.list.access,
    args: { ...pageArgs(t.arg), keyword: t.arg.string() },
    validate: pageArgsSchema.extend({ keyword: errorLogs.list.query.shape.keyword.nullish() }),
    complexity: pageComplexity,
    resolve: (_r, args, ctx) => runOperation(errorLogs.list, ctx, { query: { page: args.page, perPage: args.perPage, keyword: args.keyword ?? undefined } }),
  }),
);
