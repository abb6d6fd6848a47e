import { z } from 'zod';
import { digitId, isoDateTime } from '../shared/schemas.js';
import { scopes } from './scopes.js';

/** GET /v1/token: what the presented token is and may do; never its secret, hash or prefix. */
export const presentedTokenSchema = z
  .object({
    workspaceId: digitId,
    kind: z.enum(['developer', 'user']).meta({ description: 'developer: a workspace API token (mdev_); user: a user access token (musr_)' }),
    scheme: z.enum(['bearerAuth', 'developerAccessToken', 'tokenInSearchParams']).meta({ description: 'How this request presented it' }),
    permission: z.enum(['full', 'read_only']),
    scopes: z.array(z.enum(scopes)).nullable().meta({ description: 'The areas it may use; null for every area' }),
    createdAt: isoDateTime,
  })
  .meta({ id: 'PresentedToken' });
export type PresentedToken = z.infer<typeof presentedTokenSchema>;
