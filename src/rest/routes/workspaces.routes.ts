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
    examples: {
      response: {
        id: '1',
        name: 'Demo Workspace',
        defaultReply: 'Thanks for your message! We will get back to you shortly.',
        targetCountry: 'US',
        language: 'en',
        timezone: 'UTC',
        brandColor: '#2563eb',
        logo: '',
        ownerId: '1',
        developmentMode: true,
        createdAt: '2026-11-23T11:16:33.699Z',
        updatedAt: '2026-11-23T11:16:33.701Z',
      },
    },
    handler: async ({ db, who }) => presentWorkspace(await getWorkspace(db, who.workspaceId)),
  }),
];
