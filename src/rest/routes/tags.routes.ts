import { tagListSchema } from '../../domain/tags/tag.schema.js';
import { listWorkspaceTags } from '../../domain/tags/tag.service.js';
import { defineRoute } from '../route.js';

export const tagRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/tags',
    operationId: 'tags.list',
    summary: "The workspace's tags, sorted by name",
    tag: 'Tags',
    access: { action: 'read', scope: 'tags' },
    response: { status: 200, description: 'All tags (not paginated)', schema: tagListSchema },
    errors: [400, 401, 403, 404, 429, 500],
    examples: {
      response: {
        data: [
          { id: '6', name: 'Abandoned cart' },
          { id: '3', name: 'Customer' },
          { id: '2', name: 'Lead' },
          { id: '1', name: 'VIP' },
        ],
      },
    },
    handler: async ({ db, who }) => ({ data: await listWorkspaceTags(db, who.workspaceId) }),
  }),
];
