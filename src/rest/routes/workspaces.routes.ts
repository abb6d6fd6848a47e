import { workspaceTokenSchemes } from '../../domain/auth/principal.js';
import { workspaceSchema } from '../../domain/workspaces/workspace.schema.js';
import { getWorkspace, presentWorkspace } from '../../domain/workspaces/workspace.service.js';
import { defineRoute } from '../route.js';

export const workspaceRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/workspaces',
    operationId: 'workspaces.get',
    summary: "The token's workspace",
    tag: 'Workspaces',
    access: { action: 'read', scope: 'workspace', schemes: workspaceTokenSchemes },
    response: { status: 200, description: 'The workspace', schema: workspaceSchema },
    errors: [401, 403, 429, 500],
    handler: async ({ db, who }) => presentWorkspace(await getWorkspace(db, who.workspaceId)),
  }),
];
