import { z } from 'zod';
import { digitId, isoDateTime } from '../shared/schemas.js';
import { pageQueryFields } from '../shared/pagination.js';

/**
 * Dynamic images: a canvas (width x height) with layout elements drawn on it for each contact.
 * The enumerations are closed: a value outside them is 422 invalidRequestData.
 *
 * - element `type`: `image` (a picture in a box), `text` (text in a box) or `qrCode` (a QR code of
 *   a text in a box).
 * - `imageType` of an image element: `url` (the picture at `url`), `customField` (the picture at
 *   the URL the contact's value of `customFieldId` holds; `url`, when not "", is the fallback for
 *   contacts without a value) or `avatarUser` (the contact's avatar; `url` is the fallback; `avatar`
 *   is accepted and kept as an alias).
 * - texts (of text and QR-code elements) may hold variables: {{first_name}}, {{last_name}},
 *   {{full_name}}, {{email}}, {{phone}} and {{cf:<custom field name or id>}} (dynamic-image-text.ts).
 * - `imageStyle` of an image element: `square` (as is), `circle` (cropped to the largest circle
 *   of the box), `rounded` (corners rounded).
 * - `align` of a text element: `left`, `center`, `right` (within its box).
 *
 * Stored images are read with the output schemas, which accept every image the input schemas
 * accept and also what a deleted custom field leaves behind (its ids become "").
 */
export const ELEMENT_TYPES = ['image', 'text', 'qrCode'] as const;
export const IMAGE_TYPES = ['url', 'customField', 'avatarUser', 'avatar'] as const;
/** arial is drawn with Arimo, serif with Noto Serif (metric-compatible, open fonts shipped with the service). */
export const FONT_FAMILIES = ['arial', 'serif', 'roboto', 'greatVibes'] as const;
export const IMAGE_STYLES = ['square', 'circle', 'rounded'] as const;
export const TEXT_ALIGNS = ['left', 'center', 'right'] as const;
export const MAX_CANVAS = 4096;
export const MAX_ELEMENTS = 50;
export const MAX_URL_LENGTH = 2048;
export const MAX_TEXT_LENGTH = 1000;
export const MAX_FONT_SIZE = 512;
/** A QR code of version 40 at its lowest correction holds at most 2,953 bytes; a URL with a token is far less. */
export const MAX_QR_TEXT_LENGTH = 1000;

/** How a text element stored before its typeface options existed is drawn. */
const textStyleDefaults = { fontFamily: 'arial', bold: false, italic: false, uppercase: false, fallback: '' } as const;

/** A message for a value of the wrong kind; a missing value is "Required", as everywhere. */
const unlessMissing = (message: string) => (issue: { input?: unknown }) => (issue.input === undefined ? 'Required' : message);

const typeDescription = 'Element kind: `image` (a picture in the box), `text` (text in the box) or `qrCode` (a QR code of a text in the box)';
const imageTypeDescription =
  'Where the picture comes from: `url` (the picture at `url`), `customField` (the URL in the contact\'s value of `customFieldId`; `url` is the fallback when the contact has none) or `avatarUser` (the contact\'s avatar; `url` is the fallback; `avatar` is the same)';
const variablesDescription = 'Variables filled per contact: {{first_name}}, {{last_name}}, {{full_name}}, {{email}}, {{phone}}, {{cf:<custom field name or id>}}';
const fontFamilyDescription = 'Typeface: `arial` (Arimo), `serif` (Noto Serif), `roboto` or `greatVibes` (a script face); each covers Vietnamese and the other Latin-script languages';
const imageStyleDescription = 'How the picture is cut: `square` (as is), `circle` (the largest circle of the box) or `rounded` (rounded corners)';
const alignDescription = 'Horizontal alignment of the text in its box: `left`, `center` or `right`';
const priorityDescription = "The contract's `priority` flag; stored and answered as given (default false); drawing follows the order of elements";
const elementFieldDescription = 'Digit-string id of a custom field of the workspace, or "" for none';

// ---------------------------------------------------------------------------------------------
// Output: stored images

const storedElementBase = {
  id: z.string(),
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
  priority: z.boolean().meta({ description: priorityDescription }),
};

export const dynamicImageImageElementSchema = z
  .object({
    ...storedElementBase,
    type: z.literal('image').meta({ description: typeDescription }),
    imageType: z.enum(IMAGE_TYPES).meta({ description: imageTypeDescription }),
    url: z.string().meta({ description: 'http or https URL of the picture (or of the fallback picture), or ""' }),
    customFieldId: z.string().meta({ description: `${elementFieldDescription}; used by \`customField\` images` }),
    imageStyle: z.enum(IMAGE_STYLES).meta({ description: imageStyleDescription }),
  })
  .meta({ id: 'DynamicImageImageElement', description: 'A picture drawn in the box (x, y, width, height).' });

/** The contract names every element's fields alike: a text element has no picture, so these are null. */
const notAPicture = 'null: a text element has no picture';

export const dynamicImageTextElementSchema = z
  .object({
    ...storedElementBase,
    type: z.literal('text').meta({ description: typeDescription }),
    imageType: z.null().meta({ description: notAPicture }),
    url: z.null().meta({ description: notAPicture }),
    imageStyle: z.null().meta({ description: notAPicture }),
    text: z.string().meta({ description: 'The literal text; with a customFieldId, the fallback for contacts without a value' }),
    customFieldId: z.string().meta({ description: `${elementFieldDescription}: the contact's value of it is the text` }),
    fontSize: z.number().meta({ description: 'Font size in pixels of the canvas' }),
    color: z.string().meta({ description: 'Text colour, #RRGGBB' }),
    align: z.enum(TEXT_ALIGNS).meta({ description: alignDescription }),
    fontFamily: z.enum(FONT_FAMILIES).meta({ description: fontFamilyDescription }),
    bold: z.boolean(),
    italic: z.boolean(),
    uppercase: z.boolean().meta({ description: 'Drawn in capitals' }),
    fallback: z.string().meta({ description: 'Drawn in place of a variable whose value the contact does not have' }),
  })
  .meta({ id: 'DynamicImageTextElement', description: 'Text drawn in the box (x, y, width, height): word-wrapped, lines of 1.2 x fontSize, cut at the box.' });

export const dynamicImageQrCodeElementSchema = z
  .object({
    ...storedElementBase,
    type: z.literal('qrCode').meta({ description: typeDescription }),
    imageType: z.null().meta({ description: notAPicture }),
    url: z.null().meta({ description: notAPicture }),
    imageStyle: z.null().meta({ description: notAPicture }),
    customFieldId: z.literal('').meta({ description: '"": a QR code takes its values through the variables of its text' }),
    text: z.string().meta({ description: `What the QR code holds. ${variablesDescription}` }),
    color: z.string().meta({ description: 'Colour of the dark modules, #RRGGBB' }),
  })
  .meta({ id: 'DynamicImageQrCodeElement', description: 'A QR code of the text, the largest square that fits the box.' });

export const dynamicImageElementSchema = z
  .discriminatedUnion('type', [dynamicImageImageElementSchema, dynamicImageTextElementSchema, dynamicImageQrCodeElementSchema])
  .meta({ id: 'DynamicImageElement', description: 'A layout element, by `type`: `image`, `text` or `qrCode`.' });
export type DynamicImageElement = z.infer<typeof dynamicImageElementSchema>;

/** A layout as stored: what its input schema checked and filled in. */
export type StoredDynamicImageData = z.output<typeof dynamicImageDataInput>;

/**
 * Gives a stored element every field the contract names, in place (a text element gets the
 * picture's fields as null): it is for an element just parsed from its stored JSON, which nothing
 * else holds. Not copied with a spread and three more keys: on Node 20, V8 builds new hidden classes
 * for each such copy, so a page of images cost a fifth more (bench/README.md).
 */
export function withContractFields(element: StoredDynamicImageData['elements'][number]): DynamicImageElement {
  if (element.type !== 'image') {
    const notPicture = element as typeof element & { imageType: null; url: null; imageStyle: null; customFieldId: string };
    notPicture.imageType = null;
    notPicture.url = null;
    notPicture.imageStyle = null;
    if (element.type === 'qrCode') notPicture.customFieldId = '';
    // Text elements stored before their typeface options existed draw as their defaults.
    else if (element.fontFamily === undefined) Object.assign(element, textStyleDefaults);
  }
  return element as DynamicImageElement;
}

export const dynamicImageDataSchema = z
  .object({
    width: z.number(),
    height: z.number(),
    backgroundColor: z.string().meta({ description: 'Colour the canvas is filled with under everything, #RRGGBB, or "" for transparent' }),
    elements: z.array(dynamicImageElementSchema),
  })
  .meta({ id: 'DynamicImageData', description: 'The canvas (width and height in pixels) and its elements, drawn in order.' });

export const dynamicImageSchema = z
  .object({
    id: digitId,
    name: z.string(),
    customFieldId: z.string().meta({ description: 'Digit-string id of the custom field, or "" when none' }),
    backgroundUrl: z.string().meta({ description: 'http or https URL of the background picture, or "" for none' }),
    imageUrl: z.string().meta({
      description:
        "The public link a bot sends, per contact: append `&t=<token>` signed for the contact (`renderUrl` in GraphQL gives the whole link). Without a token it answers the static layer (background and the elements without variables).",
    }),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    enabled: z.boolean(),
    data: dynamicImageDataSchema,
  })
  .meta({ id: 'DynamicImage' });
export type DynamicImage = z.infer<typeof dynamicImageSchema>;

export const dynamicImagesQuery = z.strictObject({
  ...pageQueryFields,
  name: z.string().max(255).optional().meta({ description: 'Case-insensitive substring of the image name' }),
});

export const dynamicImagePageSchema = z.object({ data: z.array(dynamicImageSchema), pageCount: z.number().int() }).meta({ id: 'DynamicImagePage' });

// ---------------------------------------------------------------------------------------------
// Input: create (POST) and replace (PUT)

/** Whether `value` parses as an absolute http or https URL with a host. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** An http or https URL (at most 2048 characters), or "" for none; `name` words the messages. */
export const httpUrlOrEmpty = (name: string) =>
  z
    .string({ error: unlessMissing(`${name} must be a string`) })
    .max(MAX_URL_LENGTH, { error: `${name} must be at most ${MAX_URL_LENGTH} characters`, abort: true })
    .refine((v) => v === '' || isHttpUrl(v), `${name} must be an http or https URL (or "" for none)`);

const fieldRef = z.union([digitId, z.literal('')], { error: unlessMissing('customFieldId must be a digit-string custom field id, or "" for none') });

const coordinate = (name: string) => z.number({ error: unlessMissing(`${name} must be a number`) }).min(0, `${name} must be at least 0`);
const length = (name: string) => z.number({ error: unlessMissing(`${name} must be a number`) }).positive(`${name} must be greater than 0`);

const hexColor = z.string({ error: unlessMissing('color must be a string') }).regex(/^#[0-9A-Fa-f]{6}$/, 'color must be #RRGGBB (six hex digits)');

const elementBase = {
  id: z.string().min(1, 'id must not be empty').max(64, 'id must be at most 64 characters').meta({ description: 'Unique among the elements of the image, 1 to 64 characters' }),
  x: coordinate('x').meta({ description: 'Left edge in pixels from the canvas\'s left; x + width must not exceed the canvas width' }),
  y: coordinate('y').meta({ description: 'Top edge in pixels from the canvas\'s top; y + height must not exceed the canvas height' }),
  width: length('width'),
  height: length('height'),
  priority: z.boolean().default(false).meta({ description: priorityDescription }),
};

export const imageElementInput = z
  .strictObject({
    ...elementBase,
    type: z.literal('image').meta({ description: typeDescription }),
    imageType: z.enum(IMAGE_TYPES, { error: unlessMissing(`imageType must be one of ${IMAGE_TYPES.join(', ')}`) }).meta({ description: imageTypeDescription }),
    url: httpUrlOrEmpty('url').default('').meta({ description: 'http or https URL: the picture of a `url` image (required there), the fallback of the others; "" for none (default)' }),
    customFieldId: fieldRef.default('').meta({ description: `${elementFieldDescription} (default): required by \`customField\` images, "" for the others` }),
    imageStyle: z.enum(IMAGE_STYLES, { error: unlessMissing(`imageStyle must be one of ${IMAGE_STYLES.join(', ')}`) }).default('square').meta({ description: `${imageStyleDescription} (default square)` }),
  })
  .superRefine((e, ctx) => {
    if (e.imageType === 'url' && e.url === '') ctx.addIssue({ code: 'custom', message: 'url is required when imageType is url', path: ['url'] });
    if (e.imageType === 'customField' && e.customFieldId === '') {
      ctx.addIssue({ code: 'custom', message: 'customFieldId is required when imageType is customField', path: ['customFieldId'] });
    }
    if (e.imageType !== 'customField' && e.customFieldId !== '') {
      ctx.addIssue({ code: 'custom', message: `customFieldId must be "" when imageType is ${e.imageType}`, path: ['customFieldId'] });
    }
  })
  .meta({ id: 'DynamicImageImageElementInput', description: 'A picture in the box. `url` images need url; `customField` images need customFieldId.' });


export const textElementInput = z
  .strictObject({
    ...elementBase,
    type: z.literal('text').meta({ description: typeDescription }),
    text: z.string().max(MAX_TEXT_LENGTH, `text must be at most ${MAX_TEXT_LENGTH} characters`).default('').meta({
      description: 'The literal text; with a customFieldId, the fallback for contacts without a value (default "")',
    }),
    customFieldId: fieldRef.default('').meta({ description: `${elementFieldDescription} (default): the contact's value of it is the text` }),
    fontSize: z
      .number({ error: unlessMissing('fontSize must be a number') })
      .min(1, 'fontSize must be at least 1')
      .max(MAX_FONT_SIZE, `fontSize must be at most ${MAX_FONT_SIZE}`)
      .meta({ description: `Font size in pixels of the canvas, 1 to ${MAX_FONT_SIZE}` }),
    color: hexColor.meta({ description: 'Text colour, #RRGGBB' }),
    align: z.enum(TEXT_ALIGNS, { error: unlessMissing(`align must be one of ${TEXT_ALIGNS.join(', ')}`) }).meta({ description: alignDescription }),
    fontFamily: z
      .enum(FONT_FAMILIES, { error: unlessMissing(`fontFamily must be one of ${FONT_FAMILIES.join(', ')}`) })
      .default(textStyleDefaults.fontFamily)
      .meta({ description: `${fontFamilyDescription} (default arial)` }),
    bold: z.boolean().default(false),
    italic: z.boolean().default(false),
    uppercase: z.boolean().default(false).meta({ description: 'Drawn in capitals (default false)' }),
    fallback: z.string().max(MAX_TEXT_LENGTH, `fallback must be at most ${MAX_TEXT_LENGTH} characters`).default('').meta({
      description: 'Drawn in place of a variable whose value the contact does not have (default "")',
    }),
  })
  .superRefine((e, ctx) => {
    if (e.text === '' && e.customFieldId === '') ctx.addIssue({ code: 'custom', message: 'A text element needs a text or a customFieldId', path: ['text'] });
  })
  .meta({
    id: 'DynamicImageTextElementInput',
    description:
      `Text in the box: the text with its variables filled for the contact, or the contact's value of a custom field (the text as fallback). ${variablesDescription}. imageType, url and imageStyle, which a text element answers as null, may be sent back as null; any other value of them is an unknown key.`,
  });

export const qrCodeElementInput = z
  .strictObject({
    ...elementBase,
    type: z.literal('qrCode').meta({ description: typeDescription }),
    text: z
      .string({ error: unlessMissing('text must be a string') })
      .min(1, 'text must not be empty')
      .max(MAX_QR_TEXT_LENGTH, `text must be at most ${MAX_QR_TEXT_LENGTH} characters`)
      .meta({ description: `What the QR code holds, 1 to ${MAX_QR_TEXT_LENGTH} characters. ${variablesDescription}` }),
    color: hexColor.default('#000000').meta({ description: 'Colour of the dark modules, #RRGGBB (default #000000)' }),
  })
  .meta({
    id: 'DynamicImageQrCodeElementInput',
    description: 'A QR code of the text. imageType, url and imageStyle (answered as null) and customFieldId (answered as "") may be sent back as read.',
  });

/**
 * A text element answers the picture's fields as null (withContractFields); sent back as read, those
 * nulls are taken as left out. Any other value of them stays an unknown key of a text element.
 */
function withoutNullPictureFields(element: unknown): unknown {
  if (!element || typeof element !== 'object') return element;
  const type = (element as { type?: unknown }).type;
  if (type !== 'text' && type !== 'qrCode') return element;
  const e = { ...(element as Record<string, unknown>) };
  for (const key of ['imageType', 'url', 'imageStyle']) if (e[key] === null) delete e[key];
  if (type === 'qrCode' && e.customFieldId === '') delete e.customFieldId;
  return e;
}

export const elementInput = z.preprocess(
  withoutNullPictureFields,
  z
    .discriminatedUnion('type', [imageElementInput, textElementInput, qrCodeElementInput], { error: unlessMissing(`type must be one of ${ELEMENT_TYPES.join(', ')}`) })
    .meta({ id: 'DynamicImageElementInput' }),
);

const canvasSide = (name: string) =>
  z
    .number({ error: unlessMissing(`${name} must be a number`) })
    .int(`${name} must be a whole number of pixels`)
    .min(1, `${name} must be at least 1`)
    .max(MAX_CANVAS, `${name} must be at most ${MAX_CANVAS}`)
    .meta({ description: `Canvas ${name} in pixels, 1 to ${MAX_CANVAS}` });

export const dynamicImageDataInput = z
  .strictObject({
    width: canvasSide('width'),
    height: canvasSide('height'),
    backgroundColor: z
      .string({ error: unlessMissing('backgroundColor must be #RRGGBB (six hex digits), or "" for transparent') })
      .regex(/^(#[0-9A-Fa-f]{6})?$/, 'backgroundColor must be #RRGGBB (six hex digits), or "" for transparent')
      .default('')
      .meta({ description: 'Colour the canvas is filled with under the background picture and the elements, #RRGGBB; "" (default) for transparent' }),
    elements: z.array(elementInput).max(MAX_ELEMENTS, `elements must hold at most ${MAX_ELEMENTS} elements`).meta({
      description: `At most ${MAX_ELEMENTS}, drawn in order; ids unique; every box inside the canvas`,
    }),
  })
  .superRefine((data, ctx) => {
    const seen = new Map<string, number>();
    data.elements.forEach((e, i) => {
      const first = seen.get(e.id);
      if (first !== undefined) ctx.addIssue({ code: 'custom', message: `id "${e.id}" is already the id of element ${first}`, path: ['elements', i, 'id'] });
      else seen.set(e.id, i);
      if (e.x + e.width > data.width) {
        ctx.addIssue({ code: 'custom', message: `x + width must be at most the canvas width (${data.width})`, path: ['elements', i, 'width'] });
      }
      if (e.y + e.height > data.height) {
        ctx.addIssue({ code: 'custom', message: `y + height must be at most the canvas height (${data.height})`, path: ['elements', i, 'height'] });
      }
    });
  })
  .meta({ id: 'DynamicImageDataInput', description: 'The canvas and its elements.' });

const nameInput = z.string().trim().min(1, 'name must not be empty').max(255, 'name must be at most 255 characters');
/** The image's custom field: a digit-string id, or null or "" for none. */
const imageFieldInput = z
  .union([digitId, z.literal(''), z.null()], { error: unlessMissing('customFieldId must be a digit-string custom field id, or null or "" for none') })
  .transform((v) => (v === '' ? null : v));

const imageFields = {
  name: nameInput.meta({ description: 'Trimmed, 1 to 255 characters; not unique' }),
  customFieldId: imageFieldInput.meta({ description: 'A custom field of the workspace, or null or "" for none' }),
  backgroundUrl: httpUrlOrEmpty('backgroundUrl').meta({ description: 'http or https URL of the background picture, or "" for none' }),
  enabled: z.boolean(),
  data: dynamicImageDataInput,
};

export const createDynamicImageInput = z
  .strictObject({
    ...imageFields,
    customFieldId: imageFields.customFieldId.optional().transform((v) => v ?? null).meta({ description: 'A custom field of the workspace, or null or "" for none (default)' }),
    backgroundUrl: imageFields.backgroundUrl.default('').meta({ description: 'http or https URL of the background picture, or "" for none (default)' }),
    enabled: z.boolean().default(true).meta({ description: 'Default true' }),
  })
  .meta({ id: 'CreateDynamicImageInput', description: 'name and data are required; imageUrl is not writable (it is the image\'s public link).' });
export type CreateDynamicImageInput = z.infer<typeof createDynamicImageInput>;

export const replaceDynamicImageInput = z
  .strictObject(imageFields)
  .meta({ id: 'ReplaceDynamicImageInput', description: 'Every writable field (a full replace); imageUrl is not writable.' });
export type ReplaceDynamicImageInput = z.infer<typeof replaceDynamicImageInput>;

export const setDynamicImageEnabledInput = z.strictObject({ enabled: z.boolean() }).meta({ id: 'SetDynamicImageEnabledInput' });
