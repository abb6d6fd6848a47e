import { workspaceTokenSchemes } from '../auth/principal.js';
import { operation, operationsOf } from '../shared/operation.js';
import { workspaceSchema } from './workspace.schema.js';
import { getWorkspace, presentWorkspace } from './workspace.service.js';

/** The token's workspace. */
export const workspaceOperations = operationsOf('Workspaces', {
  get: operation({
    id: 'workspaces.get',
    summary: 'Get the workspace',
    description: "The token's workspace.",
    access: { action: 'read', scope: 'workspace', schemes: workspaceTokenSchemes },
    output: workspaceSchema,
    outputDescription: 'The workspace',
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
    run: async ({ db, who }) => presentWorkspace(await getWorkspace(db, who.workspaceId)),
  }),
});
