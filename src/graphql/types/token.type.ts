import type { PresentedToken } from '../../domain/auth/token.schema.js';
import { tokenOperations as token } from '../../domain/auth/token.operations.js';
import { builder } from '../builder.js';
import { contractEnum } from '../enums.js';
import { runOperation } from '../operations.js';

const TokenKindEnum = contractEnum('TokenKind', ['developer', 'user'] as const, 'developer: a workspace API token (mdev_); user: a user access token (musr_)');
const AuthSchemeEnum = contractEnum('AuthScheme', ['bearerAuth', 'developerAccessToken', 'tokenInSearchParams'] as const, 'How the request presented the token');
const TokenPermissionEnum = contractEnum('TokenPermission', ['full', 'read_only'] as const);

const TokenType = builder.objectRef<PresentedToken>('Token').implement({
  description: 'The token this request presented (GET /v1/token); never its secret.',
  fields: (t) => ({
    workspaceId: t.exposeID('workspaceId'),
    kind: t.expose('kind', { type: TokenKindEnum }),
    scheme: t.expose('scheme', { type: AuthSchemeEnum }),
    permission: t.expose('permission', { type: TokenPermissionEnum }),
    scopes: t.exposeStringList('scopes', { nullable: true, description: 'The areas it may use; null for every area' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.queryField('token', (t) =>
  t.field({
    type: TokenType,
    description: 'Like GET /v1/token: what the presented token is and may do. Any token may read itself (no scope).',
    access: token.get.access,
    resolve: (_r, _a, ctx) => runOperation(token.get, ctx),
  }),
);
