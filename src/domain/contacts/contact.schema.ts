import { z } from 'zod';
import { digitId, isoDateTime } from '../shared/schemas.js';

const nullableText = z.string().nullable();
const nullableDate = isoDateTime.nullable();

export const genderSchema = z.enum(['male', 'female', 'unknown']).meta({ id: 'Gender' });

export const inboxSchema = z
  .object({
    id: digitId,
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    name: z.string(),
    channel: z.string(),
    sourceId: z.string(),
    workspaceId: digitId,
    status: z.string(),
  })
  .meta({ id: 'Inbox' });

export const contactCustomFieldSchema = z
  .object({ id: digitId, createdAt: isoDateTime, updatedAt: isoDateTime, value: z.string(), contactId: digitId, customFieldId: digitId })
  .meta({ id: 'ContactCustomField' });

export const contactTagSchema = z
  .object({
    id: digitId,
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    name: z.string(),
    deletedAt: nullableDate,
    folderId: digitId.nullable(),
    workspaceId: digitId,
  })
  .meta({ id: 'ContactTag' });

export const contactNoteSchema = z
  .object({ id: digitId, createdAt: isoDateTime, updatedAt: isoDateTime, text: z.string(), contactId: digitId, createdById: digitId.nullable() })
  .meta({ id: 'ContactNote' });

export const contactInboxSchema = z
  .object({ id: digitId, contactId: digitId, inboxId: digitId, channel: z.string(), inbox: inboxSchema })
  .meta({ id: 'ContactInbox' });

/** The contact's own columns; the API object adds the four nested arrays. */
export const contactScalarsSchema = z.object({
  id: digitId,
  avatar: nullableText,
  phoneNumber: nullableText,
  email: nullableText,
  firstName: nullableText,
  lastName: nullableText,
  fullName: z.string(),
  ref: nullableText,
  country: nullableText,
  state: nullableText,
  city: nullableText,
  location: nullableText,
  locale: nullableText,
  timezone: nullableText,
  workspaceId: digitId,
  gender: genderSchema,
  emailVerified: z.boolean(),
  emailOptIn: z.boolean(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
  lastReadAt: nullableDate,
  subscribedAt: nullableDate,
  broadcastSubscribedAt: nullableDate,
  blockedAt: nullableDate,
});
export type ContactScalars = z.infer<typeof contactScalarsSchema>;

export const contactSchema = contactScalarsSchema
  .extend({
    contactCustomFields: z.array(contactCustomFieldSchema),
    tags: z.array(contactTagSchema),
    contactNotes: z.array(contactNoteSchema),
    contactInboxes: z.array(contactInboxSchema),
  })
  .meta({ id: 'Contact' });
export type Contact = z.infer<typeof contactSchema>;

/** `phoneNumber`: an optional `+` and 7 to 20 digits. */
export const phoneNumberSchema = z.string().regex(/^\+?\d{7,20}$/, 'phoneNumber must be an optional + followed by 7 to 20 digits');

export const createContactInput = z
  .strictObject({
    phoneNumber: phoneNumberSchema.optional(),
    email: z.email('email must be a valid email address').max(320).optional(),
    firstName: z.string().trim().max(255).optional(),
    lastName: z.string().trim().max(255).optional(),
  })
  .refine((c) => c.email !== undefined || c.phoneNumber !== undefined, { message: 'Provide at least one of email or phoneNumber' })
  // The refinement as JSON Schema, for the OpenAPI document (zod cannot translate a refine).
  .meta({ id: 'CreateContactInput', description: 'At least one of email or phoneNumber is required.', anyOf: [{ required: ['email'] }, { required: ['phoneNumber'] }] });
export type CreateContactInput = z.infer<typeof createContactInput>;

/** The contract's identifier rule: a string of at least one character. */
export const identifierParams = z.strictObject({
  identifier: z
    .string()
    .min(1)
    .max(320)
    .meta({ description: 'Contact id, email or phone number; or prefixed as id:<digits>, email:<address>, phone:<number>' }),
});

export const customFieldValueSchema = z
  .object({ id: digitId, name: z.string(), description: z.string(), value: z.string(), type: z.string() })
  .meta({ id: 'ContactCustomFieldValue' });

export const contactSequenceSchema = z.object({ sequenceId: digitId, sequenceName: z.string() }).meta({ id: 'ContactSequence' });
