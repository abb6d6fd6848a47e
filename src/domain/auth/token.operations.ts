import { operation, operationsOf } from '../shared/operation.js';
import { presentedTokenSchema } from './token.schema.js';
import { getPresentedToken } from './token.service.js';

/** The presented token. */
export const tokenOperations = operationsOf('Token', {
  get: operation({
    id: 'token.get',
    summary: 'Get the presented token',
    description: 'What the presented token is and may do; never its secret.',
    // Any token may read itself: no scope, and read-only tokens too.
    access: { action: 'read', scope: null },
    output: presentedTokenSchema,
    outputDescription: 'The token',
    examples: {
      response: {
        workspaceId: '1',
        kind: 'developer',
        scheme: 'developerAccessToken',
        permission: 'full',
        scopes: ['contacts', 'tags'],
        createdAt: '2026-11-01T09:00:00.000Z',
      },
    },
    run: ({ db, who }) => getPresentedToken(db, who),
  }),
});
