import { z } from 'zod';
import { dynamicImageOperations as images } from '../../domain/dynamic-images/dynamic-image.operations.js';
import type { DynamicImage, DynamicImageElement } from '../../domain/dynamic-images/dynamic-image.schema.js';
import { plainIds, withoutNulls, type ArgBuilder } from '../args.js';
import { builder, SuccessType } from '../builder.js';
import { nodeOptions, rawIdField, recordIdArg } from '../node.js';
import { runOperation } from '../operations.js';
import { pageArgs, pageArgsSchema, pageComplexity, pageOf } from '../page.js';
import { CustomFieldType } from './custom-field.type.js';
import { signedLink } from '../../domain/dynamic-images/dynamic-image-render.service.js';

/**
 * Dynamic images over the operations REST runs (dynamic-image.operations.ts). Layout elements are an interface
 * with one object type per element `type` (image, text): each kind's own fields are non-null
 * there, as the zod discriminated union has them, and a client selects them with inline fragments
 * (`... on DynamicImageTextElement { text fontSize }`).
 */

type ImageElement = Extract<DynamicImageElement, { type: 'image' }>;
type TextElement = Extract<DynamicImageElement, { type: 'text' }>;
type QrCodeElement = Extract<DynamicImageElement, { type: 'qrCode' }>;

const elementTypeNames = { image: 'DynamicImageImageElement', text: 'DynamicImageTextElement', qrCode: 'DynamicImageQrCodeElement' } as const;

const DynamicImageElementInterface = builder.interfaceRef<DynamicImageElement>('DynamicImageElement').implement({
  description:
    'A layout element: its box on the canvas (pixels) and its kind. `type` is `image` (DynamicImageImageElement), `text` (DynamicImageTextElement) or `qrCode` (DynamicImageQrCodeElement).',
  resolveType: (e) => elementTypeNames[e.type],
  fields: (t) => ({
    id: t.exposeString('id', { description: 'Unique among the elements of the image' }),
    x: t.exposeFloat('x'),
    y: t.exposeFloat('y'),
    width: t.exposeFloat('width'),
    height: t.exposeFloat('height'),
    type: t.exposeString('type', { description: '`image`, `text` or `qrCode`' }),
    priority: t.exposeBoolean('priority', { description: "The contract's priority flag, stored as given" }),
    customFieldId: t.exposeString('customFieldId', { description: 'Digit-string id of a custom field, or "" for none' }),
    // Every element carries every field the contract names; a text or QR-code element's are null.
    imageType: t.exposeString('imageType', { nullable: true, description: 'An image element\'s source (see DynamicImageImageElement); null for the others' }),
    url: t.exposeString('url', { nullable: true, description: 'An image element\'s picture URL, or ""; null for the others' }),
    imageStyle: t.exposeString('imageStyle', { nullable: true, description: 'An image element\'s cut; null for the others' }),
  }),
});

builder.objectRef<ImageElement>('DynamicImageImageElement').implement({
  description: 'A picture in the box.',
  interfaces: [DynamicImageElementInterface],
  fields: (t) => ({
    imageType: t.exposeString('imageType', { description: "`url` (the picture at url), `customField` (the URL in the contact's value of customFieldId; url is the fallback) or `avatarUser` (the contact's avatar; url is the fallback; `avatar` is the same)" }),
    url: t.exposeString('url', { description: 'http or https URL, or ""' }),
    imageStyle: t.exposeString('imageStyle', { description: '`square`, `circle` or `rounded`' }),
  }),
});

builder.objectRef<TextElement>('DynamicImageTextElement').implement({
  description:
    "Text in the box: `text` with its variables filled ({{first_name}}, {{last_name}}, {{full_name}}, {{email}}, {{phone}}, {{cf:<field name or id>}}), or the contact's value of customFieldId (`text` as its fallback). Word-wrapped, lines of 1.2 x fontSize, cut at the box.",
  interfaces: [DynamicImageElementInterface],
  fields: (t) => ({
    text: t.exposeString('text'),
    fontSize: t.exposeFloat('fontSize', { description: 'Pixels of the canvas' }),
    color: t.exposeString('color', { description: '#RRGGBB' }),
    align: t.exposeString('align', { description: '`left`, `center` or `right`' }),
    fontFamily: t.exposeString('fontFamily', { description: '`arial`, `serif`, `roboto` or `greatVibes`' }),
    bold: t.exposeBoolean('bold'),
    italic: t.exposeBoolean('italic'),
    uppercase: t.exposeBoolean('uppercase'),
    fallback: t.exposeString('fallback', { description: 'Drawn in place of a variable the contact has no value for' }),
  }),
});

builder.objectRef<QrCodeElement>('DynamicImageQrCodeElement').implement({
  description: 'A QR code of `text` (variables filled per contact), the largest square that fits the box.',
  interfaces: [DynamicImageElementInterface],
  fields: (t) => ({
    text: t.exposeString('text'),
    color: t.exposeString('color', { description: 'Colour of the dark modules, #RRGGBB' }),
  }),
});

const DynamicImageDataType = builder.objectRef<DynamicImage['data']>('DynamicImageData').implement({
  fields: (t) => ({
    width: t.exposeFloat('width'),
    height: t.exposeFloat('height'),
    backgroundColor: t.exposeString('backgroundColor', { description: 'The canvas colour under everything, #RRGGBB, or "" for transparent' }),
    elements: t.expose('elements', { type: [DynamicImageElementInterface] }),
  }),
});

export const DynamicImageType = builder.node(builder.objectRef<DynamicImage>('DynamicImage'), {
  ...nodeOptions('DynamicImage', images.get.access, ({ loaders }) => loaders.dynamicImage),
  description: 'An image composed from layout elements and custom fields.',
  fields: (t) => ({
    rawId: rawIdField(t),
    name: t.exposeString('name'),
    customFieldId: t.exposeString('customFieldId', { description: 'Digit-string id of the custom field, or "" when none' }),
    customField: t.field({
      type: CustomFieldType,
      nullable: true,
      description: 'The custom field customFieldId names; null when none (one statement for every image of the response)',
      resolve: (i, _a, { loaders }) => (i.customFieldId === '' ? null : loaders.customField.load(Number(i.customFieldId))),
    }),
    backgroundUrl: t.exposeString('backgroundUrl'),
    imageUrl: t.exposeString('imageUrl', { description: "The image's public link: append `&t=<token>` signed for a contact (renderUrl); without a token it shows what every contact sees" }),
    renderUrl: t.string({
      description:
        "The image's public link signed for one contact (an expiring token): what a message carries. It answers with a redirect to the PNG drawn with the contact's values.",
      args: { contact: t.arg.string({ required: true, description: 'The contact: its id, email or phone number', validate: images.render.query.shape.contact }) },
      resolve: (image, { contact }, ctx) => signedLink(ctx.db, ctx.deps.images, ctx.who.workspaceId, image, contact),
    }),
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
    access: images.list.access,
    args: { ...pageArgs(t.arg), name: t.arg.string() },
    validate: pageArgsSchema.extend({ name: images.list.query.shape.name.nullish() }),
    complexity: pageComplexity,
    resolve: (_r, args, ctx) => runOperation(images.list, ctx, { query: { page: args.page, perPage: args.perPage, name: args.name ?? undefined } }),
  }),
);

const imageIdArg = (arg: ArgBuilder) => arg.id({ required: true, description: 'Its global id, or its plain digit id (rawId)' }).validate(recordIdArg('DynamicImage'));

builder.queryField('dynamicImage', (t) =>
  t.field({
    type: DynamicImageType,
    description: 'One dynamic image (as GET /v1/dynamic-images/{id}).',
    access: images.get.access,
    args: { id: imageIdArg(t.arg) },
    resolve: (_r, { id }, ctx) => runOperation(images.get, ctx, { params: { id } }),
  }),
);

// The input types are written by hand: an element is a union of two kinds (one GraphQL input type
// holds the fields of both), and customFieldId is a union with null that GraphQL takes as a nullable ID.
const ElementInputType = builder.inputType('DynamicImageElementInput', {
  description:
    'A layout element, as REST takes it: id, x, y, width, height and type (`image`, `text` or `qrCode`) always; `image` elements take imageType, url, customFieldId, imageStyle; `text` elements take text, customFieldId, fontSize, color, align, fontFamily, bold, italic, uppercase, fallback; `qrCode` elements take text and color. Fields of another kind must be left out (or null).',
  fields: (t) => ({
    id: t.string({ required: true }),
    x: t.float({ required: true }),
    y: t.float({ required: true }),
    width: t.float({ required: true }),
    height: t.float({ required: true }),
    type: t.string({ required: true, description: '`image`, `text` or `qrCode`' }),
    priority: t.boolean({ description: 'Default false' }),
    customFieldId: t.id({ description: 'A custom field (global or digit id), or "" or null for none' }),
    imageType: t.string({ description: 'image: `url`, `customField` or `avatarUser` (or `avatar`)' }),
    url: t.string({ description: 'image: http or https URL, or ""' }),
    imageStyle: t.string({ description: 'image: `square` (default), `circle` or `rounded`' }),
    text: t.string({ description: 'text and qrCode: the text with its variables (for text, the fallback of customFieldId)' }),
    fontSize: t.float({ description: 'text: 1 to 512' }),
    color: t.string({ description: 'text and qrCode: #RRGGBB' }),
    align: t.string({ description: 'text: `left`, `center` or `right`' }),
    fontFamily: t.string({ description: 'text: `arial` (default), `serif`, `roboto` or `greatVibes`' }),
    bold: t.boolean({ description: 'text: default false' }),
    italic: t.boolean({ description: 'text: default false' }),
    uppercase: t.boolean({ description: 'text: default false' }),
    fallback: t.string({ description: 'text: drawn in place of a variable the contact has no value for (default "")' }),
  }),
});

const DataInputType = builder.inputType('DynamicImageDataInput', {
  description: 'The canvas (width and height: whole pixels, 1 to 4096) and at most 50 elements, ids unique, every box inside the canvas.',
  fields: (t) => ({
    width: t.float({ required: true }),
    height: t.float({ required: true }),
    backgroundColor: t.string({ description: '#RRGGBB, or "" (default) for transparent' }),
    elements: t.field({ type: [ElementInputType], required: true }),
  }),
});

const CreateInputType = builder.inputType('CreateDynamicImageInput', {
  description: 'The body of POST /v1/dynamic-images: name and data; customFieldId (null: none), backgroundUrl (default "") and enabled (default true) optional.',
  fields: (t) => ({
    name: t.string({ required: true }),
    customFieldId: t.id({ description: 'A custom field of the workspace (global or digit id); null or "" for none' }),
    backgroundUrl: t.string(),
    enabled: t.boolean(),
    data: t.field({ type: DataInputType, required: true }),
  }),
});

const UpdateInputType = builder.inputType('UpdateDynamicImageInput', {
  description: 'The body of PUT /v1/dynamic-images/{id}: a full replace. customFieldId left out or null means none.',
  fields: (t) => ({
    name: t.string({ required: true }),
    customFieldId: t.id({ description: 'A custom field of the workspace (global or digit id); null, "" or left out for none' }),
    backgroundUrl: t.string({ required: true }),
    enabled: t.boolean({ required: true }),
    data: t.field({ type: DataInputType, required: true }),
  }),
});

const fieldId = plainIds('CustomField');

/**
 * GraphQL's form of an image input brought to REST's: nulls are "not given" (deeply, in the data
 * and its elements), custom-field global ids become digit ids; on a replace a missing
 * customFieldId means none.
 */
const asRestInput = (replace: boolean) => (value: unknown) => {
  const input = withoutNulls(value) as Record<string, unknown>;
  if (!input || typeof input !== 'object') return input;
  const data = withoutNulls(input.data) as Record<string, unknown> | undefined;
  const elements = data && Array.isArray(data.elements) ? data.elements.map((e) => {
    const element = withoutNulls(e) as Record<string, unknown>;
    return element.customFieldId === undefined ? element : { ...element, customFieldId: fieldId(element.customFieldId) };
  }) : data?.elements;
  return {
    ...input,
    ...(input.customFieldId !== undefined ? { customFieldId: fieldId(input.customFieldId) } : replace ? { customFieldId: null } : {}),
    ...(data ? { data: { ...data, elements } } : {}),
  };
};

builder.mutationField('createDynamicImage', (t) =>
  t.field({
    type: DynamicImageType,
    description: "Like POST /v1/dynamic-images: the same rules; the image's static layer is drawn by a job. The trial and MAC gates apply.",
    access: images.create.access,
    args: { input: t.arg({ type: CreateInputType, required: true }).validate(z.preprocess(asRestInput(false), images.create.body)) },
    resolve: (_r, { input }, ctx) => runOperation(images.create, ctx, { body: input }),
  }),
);

builder.mutationField('updateDynamicImage', (t) =>
  t.field({
    type: DynamicImageType,
    description: 'Like PUT /v1/dynamic-images/{id}: replaces every writable field; earlier renders are dropped.',
    access: images.update.access,
    args: {
      id: imageIdArg(t.arg),
      input: t.arg({ type: UpdateInputType, required: true }).validate(z.preprocess(asRestInput(true), images.update.body)),
    },
    resolve: (_r, { id, input }, ctx) => runOperation(images.update, ctx, { params: { id }, body: input }),
  }),
);

builder.mutationField('setDynamicImageEnabled', (t) =>
  t.field({
    type: DynamicImageType,
    description: 'Like PATCH /v1/dynamic-images/{id}/enabled: switches the image on or off.',
    access: images.setEnabled.access,
    args: {
      id: imageIdArg(t.arg),
      enabled: t.arg.boolean({ required: true, validate: images.setEnabled.body.shape.enabled }),
    },
    resolve: (_r, { id, enabled }, ctx) => runOperation(images.setEnabled, ctx, { params: { id }, body: { enabled } }),
  }),
);

builder.mutationField('deleteDynamicImage', (t) =>
  t.field({
    type: SuccessType,
    description: 'Like DELETE /v1/dynamic-images/{id}: permanent.',
    access: images.delete.access,
    args: { id: imageIdArg(t.arg) },
    resolve: (_r, { id }, ctx) => runOperation(images.delete, ctx, { params: { id } }),
  }),
);
