import { z } from 'zod';
import { digitId, isoDateTime } from '../shared/schemas.js';
import { pageQueryFields } from '../shared/pagination.js';

export const dynamicImageElementSchema = z
  .object({
    id: z.string(),
    x: z.number(),
    y: z.number(),
    width: z.number(),
    height: z.number(),
    type: z.string().meta({ description: 'Seen: image' }),
    imageType: z.string().meta({ description: 'Seen: url' }),
    priority: z.boolean(),
    url: z.string(),
    customFieldId: z.string(),
    imageStyle: z.string().meta({ description: 'Seen: square' }),
  })
  .meta({ id: 'DynamicImageElement' });

export const dynamicImageDataSchema = z
  .object({ width: z.number(), height: z.number(), elements: z.array(dynamicImageElementSchema) })
  .meta({ id: 'DynamicImageData' });

export const dynamicImageSchema = z
  .object({
    id: digitId,
    name: z.string(),
    customFieldId: z.string().meta({ description: 'Digit-string id of the custom field, or "" when none' }),
    backgroundUrl: z.string(),
    imageUrl: z.string(),
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
