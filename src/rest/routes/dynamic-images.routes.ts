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
    examples: {
      query: { page: '1', perPage: '20', name: 'badge' },
      response: {
        data: [
          {
            id: '4',
            name: 'Welcome badge',
            customFieldId: '',
            backgroundUrl: 'https://cdn.example.com/backgrounds/4.png',
            imageUrl: 'https://cdn.example.com/rendered/4.png',
            createdAt: '2026-10-29T11:16:33.712Z',
            updatedAt: '2026-10-29T11:16:33.712Z',
            enabled: true,
            data: {
              width: 1080,
              height: 1080,
              elements: [
                {
                  id: 'el1',
                  x: 40,
                  y: 40,
                  width: 200,
                  height: 200,
                  type: 'image',
                  imageType: 'url',
                  priority: false,
                  url: 'https://cdn.example.com/avatar-frame.png',
                  customFieldId: '',
                  imageStyle: 'square',
                },
              ],
            },
          },
        ],
        pageCount: 1,
      },
    },
    handler: ({ db, who, query }) => listDynamicImagesPage(db, who.workspaceId, query),
  }),
];
