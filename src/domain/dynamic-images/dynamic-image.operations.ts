import { z } from 'zod';
import { operation, operationsOf, type BinaryAnswer } from '../shared/operation.js';
import { idParams, successSchema } from '../shared/schemas.js';
import {
  createDynamicImageInput,
  dynamicImagePageSchema,
  dynamicImageSchema,
  dynamicImagesQuery,
  replaceDynamicImageInput,
  setDynamicImageEnabledInput,
} from './dynamic-image.schema.js';
import { createDynamicImage, deleteDynamicImage, getDynamicImage, listDynamicImagesPage, replaceDynamicImage, setDynamicImageEnabled } from './dynamic-image.service.js';
import { renderPreview } from './dynamic-image-render.service.js';
import { renderPath } from './dynamic-image-links.js';

/** The demo's greeting card (the fifth image `npm start` seeds), drawn without a token: its static layer. */
export const DEMO_RENDER_EXAMPLE = '/dynamic-images?dynamicImageId=5';

const renderQuery = z.strictObject({
  contact: z
    .string({ error: (i) => (i.input === undefined ? 'Required' : 'contact must be a string') })
    .min(1, 'contact must not be empty')
    .max(255, 'contact must be at most 255 characters')
    .meta({ description: 'The contact: its id, email or phone number (as every contact path takes it)' }),
});

/** A PNG with its own headers; the schema only types it (binary answers are not checked as JSON). */
const pngAnswer = z.custom<BinaryAnswer>((v) => typeof v === 'object' && v !== null && (v as BinaryAnswer).bytes instanceof Uint8Array);

/** The demo workspace's "Welcome badge", as built. */
const welcomeBadge = {
  id: '4',
  name: 'Welcome badge',
  customFieldId: '',
  backgroundUrl: 'https://cdn.example.com/backgrounds/4.png',
  imageUrl: 'http://localhost:4000/dynamic-images?dynamicImageId=4',
  createdAt: '2026-10-29T11:16:33.712Z',
  updatedAt: '2026-10-29T11:16:33.712Z',
  enabled: true,
  data: {
    width: 1080,
    height: 1080,
    backgroundColor: '',
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
const firstName = { id: 'name', x: 90, y: 560, width: 900, height: 120, type: 'text' as const, text: 'Happy birthday, {{first_name}}!', customFieldId: '', fontSize: 72, color: '#1F2937', align: 'center' as const, fontFamily: 'greatVibes' as const, fallback: 'friend' };
const birthdayLayout = { width: 1080, height: 1080, backgroundColor: '#FFF7ED', elements: [avatar, firstName] };
const birthdayBody = { name: 'Birthday card', customFieldId: '3', backgroundUrl: 'https://cdn.example.com/backgrounds/birthday.png', data: birthdayLayout };
const birthdayCard = {
  id: '12',
  name: 'Birthday card',
  customFieldId: '3',
  backgroundUrl: 'https://cdn.example.com/backgrounds/birthday.png',
  imageUrl: 'http://localhost:4000/dynamic-images?dynamicImageId=12',
  createdAt: '2026-11-23T10:15:00.000Z',
  updatedAt: '2026-11-23T10:15:00.000Z',
  enabled: true,
  data: {
    width: 1080,
    height: 1080,
    backgroundColor: '#FFF7ED',
    elements: [
      { ...avatar, priority: false, customFieldId: '' },
      { ...firstName, priority: false, bold: false, italic: false, uppercase: false, imageType: null, url: null, imageStyle: null },
    ],
  },
};
const changed = '2026-11-24T08:00:00.000Z';

/** Dynamic images, scope `dynamic_images`. */
export const dynamicImageOperations = operationsOf('Dynamic images', {
  list: operation({
    id: 'dynamicImages.list',
    summary: 'List dynamic images',
    description: 'Dynamic images, newest first.',
    access: { action: 'read', scope: 'dynamic_images' },
    query: dynamicImagesQuery,
    output: dynamicImagePageSchema,
    outputDescription: 'One page of images',
    examples: { query: { page: '1', perPage: '20', name: 'badge' }, response: { data: [welcomeBadge], pageCount: 1 } },
    run: ({ db, who, query }) => listDynamicImagesPage(db, who.workspaceId, { page: query.page, perPage: query.perPage, name: query.name }),
  }),
  create: operation({
    id: 'dynamicImages.create',
    summary: 'Create a dynamic image',
    description:
      'The image is enabled unless enabled is false. Its imageUrl is its public link (append `&t=<token>` signed for a contact); its static layer is drawn by a job after the save. URLs in the layout must pass the outbound guard (public hosts only).',
    access: { action: 'write', scope: 'dynamic_images' },
    body: createDynamicImageInput,
    output: dynamicImageSchema,
    outputDescription: 'The new image; `Location` is its address',
    examples: { body: birthdayBody, response: birthdayCard },
    run: ({ db, who, body, queue, outbound, images, at }) => createDynamicImage(db, who.workspaceId, body, { queue, allowedHosts: outbound.allowedHosts, store: images.store, at: at.body }),
  }),
  get: operation({
    id: 'dynamicImages.get',
    summary: 'Get a dynamic image',
    access: { action: 'read', scope: 'dynamic_images' },
    params: idParams,
    output: dynamicImageSchema,
    outputDescription: 'The image',
    examples: { params: { id: '4' }, response: welcomeBadge },
    run: ({ db, who, params }) => getDynamicImage(db, who.workspaceId, params.id),
  }),
  update: operation({
    id: 'dynamicImages.update',
    summary: 'Replace a dynamic image',
    description: 'Replaces every writable field. Every earlier render of the image is dropped: its links draw the new template.',
    access: { action: 'write', scope: 'dynamic_images' },
    params: idParams,
    body: replaceDynamicImageInput,
    output: dynamicImageSchema,
    outputDescription: 'The image as replaced',
    examples: {
      params: { id: '12' },
      body: { ...birthdayBody, name: 'Birthday card (dark)', enabled: false },
      response: { ...birthdayCard, name: 'Birthday card (dark)', enabled: false, updatedAt: changed },
    },
    run: ({ db, who, params, body, queue, outbound, images, at }) =>
      replaceDynamicImage(db, who.workspaceId, params.id, body, { queue, allowedHosts: outbound.allowedHosts, store: images.store, at: at.body }),
  }),
  setEnabled: operation({
    id: 'dynamicImages.setEnabled',
    summary: 'Switch a dynamic image on or off',
    access: { action: 'write', scope: 'dynamic_images' },
    params: idParams,
    body: setDynamicImageEnabledInput,
    output: dynamicImageSchema,
    outputDescription: 'The image',
    examples: { params: { id: '4' }, body: { enabled: false }, response: { ...welcomeBadge, enabled: false, updatedAt: changed } },
    run: ({ db, who, params, body }) => setDynamicImageEnabled(db, who.workspaceId, params.id, body.enabled),
  }),
  delete: operation({
    id: 'dynamicImages.delete',
    summary: 'Delete a dynamic image for good',
    access: { action: 'delete', scope: 'dynamic_images' },
    params: idParams,
    output: successSchema,
    outputDescription: 'Deleted',
    examples: { params: { id: '4' }, response: { success: true } },
    run: ({ db, who, params, images }) => deleteDynamicImage(db, who.workspaceId, params.id, images.store),
  }),
  render: operation({
    id: 'dynamicImages.render',
    summary: 'Render a dynamic image for a contact',
    description:
      "The PNG the contact's public link shows, drawn now or read from the store when drawn before with the same values. 503 with Retry-After when every renderer is busy. A picture that cannot be fetched is drawn as its element's fallback and logged (error log action `dynamicImage`).",
    access: { action: 'read', scope: 'dynamic_images' },
    params: idParams,
    query: renderQuery,
    output: pngAnswer,
    outputDescription: 'The picture (image/png); its ETag is its content hash',
    binary: { mediaType: 'image/png', exampleUrl: DEMO_RENDER_EXAMPLE },
    examples: { params: { id: '5' }, query: { contact: '1' }, response: { bytes: new Uint8Array(), headers: {} } },
    run: ({ db, who, params, query, images }) => renderPreview(db, images, who.workspaceId, params.id, query.contact),
    present: (r) => ({ bytes: r.png, headers: { 'cache-control': 'private, no-cache', etag: `"${r.hash}"`, ...(r.stored ? { 'content-location': renderPath(r.hash) } : {}) } }),
  }),
});
