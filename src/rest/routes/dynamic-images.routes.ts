import { dynamicImagePageSchema, dynamicImagesQuery } from '../../domain/dynamic-images/dynamic-image.schema.js';
import { listDynamicImagesPage } from '../../domain/dynamic-images/dynamic-image.service.js';
import { defineRoute } from '../route.js';

export const dynamicImageRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/dynamic-images',
    operationId: 'dynamicImages.list',
    summary: 'Dynamic images, newest first',
    tag: 'Dynamic images',
    access: { action: 'read', scope: 'dynamic_images' },
    query: dynamicImagesQuery,
    response: { status: 200, description: 'One page of images', schema: dynamicImagePageSchema },
    errors: [400, 401, 403, 422, 429, 500],
    handler: ({ db, who, query }) => listDynamicImagesPage(db, who.workspaceId, query),
  }),
];
