import { presentedTokenSchema } from '../../domain/auth/token.schema.js';
import { getPresentedToken } from '../../domain/auth/token.service.js';
import { defineRoute, type Route } from '../route.js';

/** The presented token (issue contacts-api). */
export const tokenRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/v1/token',
    operationId: 'token.get',
    summary: 'What the presented token is and may do (never its secret)',
    tag: 'Token',
    // Any token may read itself: no scope, and read-only tokens too.
    access: { action: 'read', scope: null },
    response: { status: 200, description: 'The token', schema: presentedTokenSchema },
    errors: [400, 401, 422, 429, 500],
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
    handler: ({ db, who }) => getPresentedToken(db, who),
  }),
];
