import { z } from 'zod';
import { digitId } from '../shared/schemas.js';

export const tagListItemSchema = z.object({ id: digitId, name: z.string() }).meta({ id: 'Tag' });
export const tagListSchema = z.object({ data: z.array(tagListItemSchema) }).meta({ id: 'TagList' });
