import { z } from 'zod';

/** Building blocks shared by the resource schemas. */
export const isoDateTime = z.iso.datetime({ offset: true }).meta({ format: 'date-time' });
export const digitId = z.string().regex(/^\d+$/, 'must be a digit string');
/** Path ids of the contract (`^\d+$`). */
export const idParams = z.strictObject({ id: digitId.meta({ description: 'Digit-string id' }) });
export const int32 = z.number().int().min(-2147483648).max(2147483647);
export const successSchema = z.object({ success: z.boolean() }).meta({ id: 'Success' });
