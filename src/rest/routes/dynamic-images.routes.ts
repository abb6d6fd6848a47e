import {
  createDynamicImageInput,
  dynamicImagePageSchema,
  dynamicImageSchema,
  dynamicImagesQuery,
  replaceDynamicImageInput,
  setDynamicImageEnabledInput,
} from '../../domain/dynamic-images/dynamic-image.schema.js';
import {
  createDynamicImage,
  deleteDynamicImage,
  getDynamicImage,
  listDynamicImagesPage,
  replaceDynamicImage,
  setDynamicImageEnabled,
} from '../../domain/dynamic-images/dynamic-image.service.js';
import { idParams, successSchema } from '../../domain/shared/schemas.js';
import { defineRoute } from '../route.js';

const access = (action: 'read' | 'write' | 'delete') => ({ action, scope: 'dynamic_images' as const });
const tag = 'Dynamic images';

/** The demo workspace's "Welcome badge", as built. */
const welcomeBadge = {
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
        type: 'image' as const,
        imageType: 'url' as const,
        priority: false,
        url: 'https://cdn.example.com/avatar-frame.png',
        customFieldId: '',
        imageStyle: 'square' as const,
      },
    ],
  },
};

/** A birthday card: the contact's avatar in a circle and their first name under it. */
const avatar = { id: 'avatar', x: 390, y: 200, width: 300, height: 300, type: 'image' as const, imageType: 'avatar' as const, url: 'https://cdn.example.com/default-avatar.png', imageStyle: 'circle' as const };
const firstName = { id: 'name', x: 90, y: 560, width: 900, height: 120, type: 'text' as const, text: 'Friend', customFieldId: '3', fontSize: 72, color: '#1F2937', align: 'center' as const };
const birthdayLayout = { width: 1080, height: 1080, elements: [avatar, firstName] };
const birthdayBody = { name: 'Birthday card', customFieldId: '3', backgroundUrl: 'https://cdn.example.com/backgrounds/birthday.png', data: birthdayLayout };
const birthdayCard = {
  id: '12',
  name: 'Birthday card',
  customFieldId: '3',
  backgroundUrl: 'https://cdn.example.com/backgrounds/birthday.png',
  imageUrl: '',
  createdAt: '2026-11-23T10:15:00.000Z',
  updatedAt: '2026-11-23T10:15:00.000Z',
  enabled: true,
  data: {
    width: 1080,
    height: 1080,
    elements: [
      { ...avatar, priority: false, customFieldId: '' },
      { ...firstName, priority: false, imageType: null, url: null, imageStyle: null },
    ],
  },
};
const changed = '2026-11-24T08:00:00.000Z';

const writeErrors = [400, 401, 403, 404, 413, 415, 422, 429, 500];

export const dynamicImageRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/dynamic-images',
    operationId: 'dynamicImages.list',
    summary: 'Dynamic images, newest first',
    tag,
    access: access('read'),
    query: dynamicImagesQuery,
    response: { status: 200, description: 'One page of images', schema: dynamicImagePageSchema },
    errors: [400, 401, 403, 422, 429, 500],
    examples: { query: { page: '1', perPage: '20', name: 'badge' }, response: { data: [welcomeBadge], pageCount: 1 } },
    handler: ({ db, who, query }) => listDynamicImagesPage(db, who.workspaceId, query),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/dynamic-images',
    operationId: 'dynamicImages.create',
    summary: 'Create a dynamic image (enabled unless enabled is false; imageUrl is "" until rendered)',
    tag,
    access: access('write'),
    body: createDynamicImageInput,
    response: { status: 201, description: 'The new image; `Location` is its address', schema: dynamicImageSchema, location: (i) => `/v1/dynamic-images/${i.id}` },
    errors: [400, 401, 403, 413, 415, 422, 429, 500],
    examples: { body: birthdayBody, response: birthdayCard },
    handler: ({ db, who, body }) => createDynamicImage(db, who.workspaceId, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/dynamic-images/{id}',
    operationId: 'dynamicImages.get',
    summary: 'One dynamic image',
    tag,
    access: access('read'),
    params: idParams,
    response: { status: 200, description: 'The image', schema: dynamicImageSchema },
    errors: [400, 401, 403, 404, 422, 429, 500],
    examples: { params: { id: '4' }, response: welcomeBadge },
    handler: ({ db, who, params }) => getDynamicImage(db, who.workspaceId, params.id),
  }),
  defineRoute({
    method: 'PUT',
    path: '/v1/dynamic-images/{id}',
    operationId: 'dynamicImages.update',
    summary: 'Replace a dynamic image: every writable field (imageUrl stays)',
    tag,
    access: access('write'),
    params: idParams,
    body: replaceDynamicImageInput,
    response: { status: 200, description: 'The image as replaced', schema: dynamicImageSchema },
    errors: writeErrors,
    examples: {
      params: { id: '12' },
      body: { ...birthdayBody, name: 'Birthday card (dark)', enabled: false },
      response: { ...birthdayCard, name: 'Birthday card (dark)', enabled: false, updatedAt: changed },
    },
    handler: ({ db, who, params, body }) => replaceDynamicImage(db, who.workspaceId, params.id, body),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/dynamic-images/{id}/enabled',
    operationId: 'dynamicImages.setEnabled',
    summary: 'Switch a dynamic image on or off',
    tag,
    access: access('write'),
    params: idParams,
    body: setDynamicImageEnabledInput,
    response: { status: 200, description: 'The image', schema: dynamicImageSchema },
    errors: writeErrors,
    examples: { params: { id: '4' }, body: { enabled: false }, response: { ...welcomeBadge, enabled: false, updatedAt: changed } },
    handler: ({ db, who, params, body }) => setDynamicImageEnabled(db, who.workspaceId, params.id, body.enabled),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/dynamic-images/{id}',
    operationId: 'dynamicImages.delete',
    summary: 'Delete a dynamic image for good',
    tag,
    access: access('delete'),
    params: idParams,
    response: { status: 200, description: 'Deleted', schema: successSchema },
    errors: [400, 401, 403, 404, 422, 429, 500],
    examples: { params: { id: '4' }, response: { success: true } },
    handler: ({ db, who, params }) => deleteDynamicImage(db, who.workspaceId, params.id),
  }),
];
