import type { DynamicImage } from '../../domain/dynamic-images/dynamic-image.schema.js';
import { dynamicImagesQuery } from '../../domain/dynamic-images/dynamic-image.schema.js';
import { listDynamicImagesPage } from '../../domain/dynamic-images/dynamic-image.service.js';
import { builder } from '../builder.js';
import { nodeOptions, rawIdField } from '../node.js';
import { pageArgs, pageArgsSchema, pageComplexity, pageOf } from '../page.js';

type Data = DynamicImage['data'];

const DynamicImageElementType = builder.objectRef<Data['elements'][number]>('DynamicImageElement').implement({
  description: 'A layout element. Values seen for type, imageType and imageStyle: image, url, square.',
  fields: (t) => ({
    id: t.exposeString('id'),
    x: t.exposeFloat('x'),
    y: t.exposeFloat('y'),
    width: t.exposeFloat('width'),
    height: t.exposeFloat('height'),
    type: t.exposeString('type'),
    imageType: t.exposeString('imageType'),
    priority: t.exposeBoolean('priority'),
    url: t.exposeString('url'),
    customFieldId: t.exposeString('customFieldId'),
    imageStyle: t.exposeString('imageStyle'),
  }),
});

const DynamicImageDataType = builder.objectRef<Data>('DynamicImageData').implement({
  fields: (t) => ({
    width: t.exposeFloat('width'),
    height: t.exposeFloat('height'),
    elements: t.expose('elements', { type: [DynamicImageElementType] }),
  }),
});

export const DynamicImageType = builder.node(builder.objectRef<DynamicImage>('DynamicImage'), {
  ...nodeOptions('DynamicImage', { action: 'read', scope: 'dynamic_images' }, ({ loaders }) => loaders.dynamicImage),
  description: 'An image composed from layout elements and custom fields.',
  fields: (t) => ({
    rawId: rawIdField(t),
    name: t.exposeString('name'),
    customFieldId: t.exposeString('customFieldId', { description: 'Digit-string id of the custom field, or "" when none' }),
    backgroundUrl: t.exposeString('backgroundUrl'),
    imageUrl: t.exposeString('imageUrl'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    enabled: t.exposeBoolean('enabled'),
    data: t.expose('data', { type: DynamicImageDataType }),
  }),
});

builder.queryField('dynamicImages', (t) =>
  t.field({
    type: pageOf('DynamicImagePage', DynamicImageType),
    description: 'Like GET /v1/dynamic-images: newest first; `name` is a case-insensitive substring of the image name.',
    access: { action: 'read', scope: 'dynamic_images' },
    args: { ...pageArgs(t.arg), name: t.arg.string() },
    validate: pageArgsSchema.extend({ name: dynamicImagesQuery.shape.name.nullish() }),
    complexity: pageComplexity,
    resolve: (_r, args, { db, who }) => listDynamicImagesPage(db, who.workspaceId, { page: args.page, perPage: args.perPage, name: args.name ?? undefined }),
  }),
);
