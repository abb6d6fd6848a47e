import { z } from 'zod';
import { digitId, isoDateTime } from '../shared/schemas.js';
import { keysBeyond, type Listing } from '../shared/listing.js';

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

/**
 * What a page of contacts usually shows (names, email, phone, avatar, dates): a list that asks for
 * nothing else reads only these columns (contact.repository.ts listContactListings): fewer
 * columns are less for SQLite to read and smaller objects to make (bench/README.md).
 */
export const contactListingKeys = ['id', 'workspaceId', 'avatar', 'phoneNumber', 'email', 'firstName', 'lastName', 'fullName', 'createdAt', 'updatedAt'] as const;
/** The fields of a contact a listing does not hold. */
export const contactKeysBeyondListing = keysBeyond(contactScalarsSchema.shape, contactListingKeys);
export type ContactListing = Listing<ContactScalars, (typeof contactListingKeys)[number]>;

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
export const emailSchema = z.email('email must be a valid email address').max(320);
export const nameSchema = z.string().trim().max(255);

/**
 * Integrations send blank form fields as "" (or spaces): a text field that is empty after trimming
 * counts as not given, as if the key were absent. The JSON Schema shows the field's own rule.
 */
const blankAsAbsent = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalText = <S extends z.ZodType>(schema: S) => z.preprocess(blankAsAbsent, schema.optional());
const clearableText = <S extends z.ZodType>(schema: S) => z.preprocess(blankAsAbsent, schema.nullable().optional());

/** A digit-string id of an inbox of the workspace (404 notFound otherwise). */
const inboxIdSchema = digitId.meta({ description: "An inbox of the workspace: the contact joins it (a contactInboxes row)" });
export const channelSchema = z.string().trim().min(1).max(50);

/**
 * The channels a new contact may name: this service's inboxes are on `photo`, `net` and `chat`.
 * Automation tools send their own words for them (`instagram`, `facebook`, `messenger`), and
 * `omnichannel` for "whatever the inbox is on": taken as the channel left out.
 */
const contactChannels = ['photo', 'net', 'chat'] as const;
const channelAliases = { instagram: 'photo', facebook: 'net', messenger: 'chat', omnichannel: undefined } as const;
const channelWords = [...contactChannels, ...(Object.keys(channelAliases) as (keyof typeof channelAliases)[])];
export const contactChannelSchema = z
  .enum(channelWords, {
    error: () => `channel must be one of ${contactChannels.join(', ')}, or instagram (photo), facebook (net), messenger (chat), omnichannel (the inbox's own)`,
  })
  .transform((word) => (word in channelAliases ? channelAliases[word as keyof typeof channelAliases] : (word as (typeof contactChannels)[number])))
  .meta({
    description:
      "The inbox's channel (its default; needs inboxId, and must be that inbox's channel): photo, net or chat. Aliases: instagram = photo, facebook = net, messenger = chat; omnichannel = whatever the inbox's channel is (as if left out).",
  });

export const createContactInput = z
  .strictObject({
    phoneNumber: optionalText(phoneNumberSchema),
    email: optionalText(emailSchema),
    firstName: optionalText(nameSchema),
    lastName: optionalText(nameSchema),
    gender: genderSchema.optional(),
    channel: contactChannelSchema.optional(),
    inboxId: inboxIdSchema.optional(),
  })
  .refine((c) => c.email !== undefined || c.phoneNumber !== undefined, { message: 'Provide at least one of email or phoneNumber' })
  .refine((c) => c.channel === undefined || c.inboxId !== undefined, { message: 'channel needs inboxId', path: ['channel'] })
  // The refinement as JSON Schema, for the OpenAPI document (zod cannot translate a refine).
  .meta({
    id: 'CreateContactInput',
    description: 'At least one of email or phoneNumber is required. Empty strings in email, phoneNumber, firstName and lastName count as not given.',
    anyOf: [{ required: ['email'] }, { required: ['phoneNumber'] }],
  });
export type CreateContactInput = z.infer<typeof createContactInput>;

/** ISO 3166-1 alpha-2: the 249 officially assigned codes. */
const countryCodes = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI ' +
    'CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ ' +
    'GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS ' +
    'LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG ' +
    'PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK ' +
    'TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
  ).split(' '),
);

/** The zone's canonical IANA name (`europe/berlin` -> `Europe/Berlin`), or null when the runtime knows no such zone. */
const canonicalTimeZone = (zone: string): string | null => {
  // Offsets (`+01:00`) and other non-names are refused even where the runtime would take them.
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(zone)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
};

const avatarSchema = z.url({ protocol: /^https?$/, error: 'avatar must be an http or https URL' }).max(2048);
const localeSchema = z
  .string()
  .max(35)
  .regex(/^[a-z]{2,3}([_-][A-Za-z0-9]{2,8})*$/, 'locale must be a language tag such as en, pt-BR or zh_Hant_TW');
const timezoneSchema = z
  .string()
  .max(64)
  .transform((zone, ctx) => {
    const canonical = canonicalTimeZone(zone);
    if (canonical === null) ctx.addIssue({ code: 'custom', message: 'timezone must be an IANA time zone such as Europe/Berlin' });
    return canonical ?? zone;
  })
  .meta({ description: 'An IANA time zone (Europe/Berlin); stored under its canonical name' });
const countrySchema = z
  .string()
  .transform((code) => code.toUpperCase())
  .refine((code) => countryCodes.has(code), 'country must be an ISO 3166-1 alpha-2 code such as DE')
  .meta({ description: 'ISO 3166-1 alpha-2 code, either case; stored upper-case' });
const placeSchema = z.string().trim().max(255);

/**
 * The editable fields of a contact. PATCH: an absent field is unchanged, null clears it. PUT: an
 * absent field is cleared (null; gender `unknown`, emailOptIn false). In both, a text field that is
 * empty after trimming counts as absent.
 */
const editableShape = {
  email: clearableText(emailSchema),
  phoneNumber: clearableText(phoneNumberSchema),
  firstName: clearableText(nameSchema),
  lastName: clearableText(nameSchema),
  gender: genderSchema.optional(),
  avatar: clearableText(avatarSchema),
  locale: clearableText(localeSchema),
  timezone: clearableText(timezoneSchema),
  country: clearableText(countrySchema),
  state: clearableText(placeSchema),
  city: clearableText(placeSchema),
  location: clearableText(placeSchema),
  ref: clearableText(placeSchema),
  emailOptIn: z.boolean().optional(),
};

export const updateContactInput = z.strictObject(editableShape).meta({
  id: 'UpdateContactInput',
  description:
    'Only the fields given change; null clears a field. A text field that is empty after trimming counts as not given. The contact must keep an email or a phone number.',
});
export type UpdateContactInput = z.infer<typeof updateContactInput>;

export const replaceContactInput = z.strictObject(editableShape).meta({
  id: 'ReplaceContactInput',
  description:
    'Every editable field: one left out (or empty) is cleared (null; gender unknown, emailOptIn false). At least one of email or phoneNumber must remain.',
});
export type ReplaceContactInput = z.infer<typeof replaceContactInput>;

export const upsertContactInput = z.strictObject(editableShape).meta({
  id: 'UpsertContactInput',
  description: 'The fields of PATCH /v1/contacts/{identifier}; when the contact is created, its email or phone number comes from the identifier.',
});

export const upsertContactResultSchema = z
  .object({ created: z.boolean().meta({ description: 'true when no contact matched and this one was created' }), contact: contactSchema })
  .meta({ id: 'UpsertContactResult' });

/** At most this many contact ids per bulk call. */
export const MAX_BULK_CONTACTS = 1000;

export const bulkDeleteContactsInput = z
  .strictObject({
    contactIds: z
      .array(digitId)
      .min(1, 'contactIds must hold at least 1 id')
      .max(MAX_BULK_CONTACTS, `contactIds must hold at most ${MAX_BULK_CONTACTS} ids`)
      .meta({ description: `Digit-string contact ids, at most ${MAX_BULK_CONTACTS} (duplicates count once)` }),
  })
  .meta({ id: 'BulkDeleteContactsInput' });
export type BulkDeleteContactsInput = z.infer<typeof bulkDeleteContactsInput>;

export const bulkDeleteResultSchema = z
  .object({ success: z.boolean(), affected: z.number().int().min(0).meta({ description: 'How many contacts were deleted' }) })
  .meta({ id: 'BulkDeleteResult' });

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

/** A note's text: trimmed, 1 to 10,000 characters. */
export const MAX_NOTE_LENGTH = 10_000;
export const noteTextSchema = z
  .string()
  .trim()
  .min(1, 'text must not be empty')
  .max(MAX_NOTE_LENGTH, `text must be at most ${MAX_NOTE_LENGTH} characters`);
export const contactNoteInput = z.strictObject({ text: noteTextSchema }).meta({ id: 'ContactNoteInput' });
export type ContactNoteInput = z.infer<typeof contactNoteInput>;

export const contactNoteParams = identifierParams.extend({ noteId: digitId.meta({ description: "The note's digit-string id" }) });

export const contactNoteListSchema = z
  .object({ data: z.array(contactNoteSchema), pageCount: z.number().int().min(0) })
  .meta({ id: 'ContactNoteList' });

export const contactInboxListSchema = z.object({ data: z.array(contactInboxSchema) }).meta({ id: 'ContactInboxList' });
