import type { Executor } from '../../db/database.js';
import { idNumber } from '../../db/values.js';
import { AppError, notFound } from '../../errors/catalogue.js';
import { valuesForContacts } from '../custom-fields/custom-field.repository.js';
import { contactInboxesForContacts, inboxesByIds, insertContactInbox } from '../inboxes/inbox.repository.js';
import { tagsForContacts } from '../tags/tag.repository.js';
import { recordEvents } from '../workspace-events/workspace-event.service.js';
import type { ContactInfoType, NewEvent } from '../workspace-events/workspace-event.schema.js';
import { notesForContacts } from './contact-note.repository.js';
import {
  deleteContactsByIds,
  DuplicateContactError,
  existingContactIds,
  findContactByEmail,
  findContactById,
  findContactByPhone,
  insertContact,
  setContactBlocked,
  updateContactFields,
  type ContactLookupOptions,
  type EditableContactColumns,
} from './contact.repository.js';
import {
  emailSchema,
  phoneNumberSchema,
  type BulkDeleteContactsInput,
  type Contact,
  type ContactScalars,
  type CreateContactInput,
  type ReplaceContactInput,
  type UpdateContactInput,
} from './contact.schema.js';
import { parseIdentifier, type ContactLookup } from './identifier.js';
import { groupBy } from '../shared/group.js';

/** The contact a contract identifier (see identifier.ts) names, or null. */
async function findByIdentifier(db: Executor, workspaceId: number, lookup: ContactLookup, opts: ContactLookupOptions = {}): Promise<ContactScalars | null> {
  if (lookup.by === 'id') {
    const found = lookup.id !== null ? await findContactById(db, workspaceId, lookup.id, opts) : null;
    return found ?? (lookup.orPhone ? findContactByPhone(db, workspaceId, lookup.orPhone, opts) : null);
  }
  if (lookup.by === 'email') return findContactByEmail(db, workspaceId, lookup.email, opts);
  return findContactByPhone(db, workspaceId, lookup.phone, opts);
}

/**
 * Resolves the contract's contact identifier (see identifier.ts) or throws 404 notFound. With
 * `lock`, in a transaction, PostgreSQL locks the contact's row until it ends (in the same
 * statement): a write that records events reads the state it changes from this way.
 */
export async function resolveContact(db: Executor, workspaceId: number, identifier: string, opts: ContactLookupOptions = {}): Promise<ContactScalars> {
  const found = await findByIdentifier(db, workspaceId, parseIdentifier(identifier), opts);
  if (!found) throw notFound('Contact');
  return found;
}

// ---- Events (workspace-events): what webhooks and subscriptions hear of a contact ----

/** The contact fields contactInfoUpdated reports, by their `info_type`. */
const infoTypes = {
  firstName: 'first_name',
  lastName: 'last_name',
  email: 'email',
  phoneNumber: 'phone',
  gender: 'gender',
  avatar: 'avatar',
  locale: 'locale',
  timezone: 'timezone',
  country: 'country',
  state: 'state',
  city: 'city',
  location: 'location',
} as const satisfies Partial<Record<keyof ContactScalars, ContactInfoType>>;

/**
 * What a change of a contact's own fields did, from its row before and after: one
 * contactInfoUpdated per reported field whose stored value differs (`old_value`/`new_value` as
 * stored, null when unset), and contactUnsubscribedFormBroadcast when emailOptIn went from true to
 * false. A field written with the value it had fires nothing.
 */
export function contactChangeEvents(before: ContactScalars, after: ContactScalars): NewEvent[] {
  const contactId = Number(after.id);
  const events: NewEvent[] = [];
  for (const [field, infoType] of Object.entries(infoTypes) as [keyof typeof infoTypes, ContactInfoType][]) {
    const was = before[field];
    const now = after[field];
    if (was !== now) events.push({ type: 'contactInfoUpdated', contactId, data: { info_type: infoType, old_value: was, new_value: now } });
  }
  if (before.emailOptIn && !after.emailOptIn) events.push({ type: 'contactUnsubscribedFormBroadcast', contactId, data: {} });
  return events;
}

/**
 * newContact for a contact just created: `name` its full name ("" when it has none), and
 * `custom_fields` the values it has when the event is recorded, by field name (usually none).
 */
export const newContactEvent = (contact: ContactScalars, customFields: Record<string, string> = {}): NewEvent => ({
  type: 'newContact',
  contactId: Number(contact.id),
  data: {
    name: contact.fullName,
    first_name: contact.firstName,
    last_name: contact.lastName,
    phone: contact.phoneNumber,
    email: contact.email,
    custom_fields: customFields,
  },
});

/** 422 validation: `data.field` names the field whose value another contact of the workspace has. */
const duplicate = (field: 'email' | 'phoneNumber') => new AppError('validation', { data: { field, reason: 'alreadyExists' } });

/**
 * Creates a contact; email and phone number are unique per workspace (email case-insensitively).
 * The pre-check names the field; the unique indexes close the race between two creates. With
 * `inboxId` the contact joins that inbox of the workspace (404 notFound for any other), in the
 * same transaction; `channel`, when given, must be that inbox's channel.
 * Input arrives validated by `createContactInput` (REST router or GraphQL validation plugin).
 */
export async function createContact(db: Executor, workspaceId: number, data: CreateContactInput): Promise<Contact> {
  const inbox = data.inboxId === undefined ? null : await findInbox(db, workspaceId, data.inboxId);
  if (inbox && data.channel !== undefined && data.channel !== inbox.channel) {
    throw new AppError('validation', { data: { field: 'channel', reason: 'inboxChannelMismatch' } });
  }
  if (data.email !== undefined && (await findContactByEmail(db, workspaceId, data.email))) throw duplicate('email');
  if (data.phoneNumber !== undefined && (await findContactByPhone(db, workspaceId, data.phoneNumber))) throw duplicate('phoneNumber');
  const fields = {
    email: data.email ?? null,
    phoneNumber: data.phoneNumber ?? null,
    firstName: data.firstName ?? null,
    lastName: data.lastName ?? null,
    gender: data.gender,
  };
  const created = await mapDuplicates(() =>
    db.transaction().execute(async (trx) => {
      const contact = await insertContact(trx, workspaceId, fields);
      if (inbox) await insertContactInbox(trx, workspaceId, { contactId: Number(contact.id), inboxId: Number(inbox.id), channel: inbox.channel });
      await recordEvents(trx, workspaceId, [newContactEvent(contact)]);
      return contact;
    }),
  );
  return (await loadFullContacts(db, workspaceId, [created]))[0];
}

/** An inbox of the workspace by digit id, or 404 notFound. */
async function findInbox(db: Executor, workspaceId: number, id: string) {
  const key = idNumber(id);
  const [inbox] = key === null ? [] : await inboxesByIds(db, workspaceId, [key]);
  if (!inbox) throw notFound('Inbox');
  return inbox;
}

/** A unique-index violation on email or phone number (a race the pre-check lost) as 422 validation. */
async function mapDuplicates<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (err instanceof DuplicateContactError) throw duplicate(err.field);
    throw err;
  }
}

/** Contacts with their four nested arrays, with a fixed number of statements for any count. */
export async function loadFullContacts(db: Executor, workspaceId: number, contacts: ContactScalars[]): Promise<Contact[]> {
  const ids = contacts.map((c) => Number(c.id));
  const [values, tags, notes, memberships] = await Promise.all([
    valuesForContacts(db, workspaceId, ids),
    tagsForContacts(db, workspaceId, ids),
    notesForContacts(db, workspaceId, ids),
    contactInboxesForContacts(db, workspaceId, ids),
  ]);
  const inboxes = new Map(
    (await inboxesByIds(db, workspaceId, [...new Set(memberships.map((m) => Number(m.inboxId)))])).map((i) => [i.id, i]),
  );
  const byContact = <T extends { contactId: string }>(rows: T[]) => {
    const groups = groupBy(rows, (r) => r.contactId);
    return (id: string) => groups.get(id) ?? [];
  };
  const [valuesOf, tagsOf, notesOf, membershipsOf] = [byContact(values), byContact(tags), byContact(notes), byContact(memberships)];
  return contacts.map((c) => ({
    ...c,
    contactCustomFields: valuesOf(c.id),
    tags: tagsOf(c.id).map(({ contactId: _omit, ...tag }) => tag),
    contactNotes: notesOf(c.id),
    contactInboxes: membershipsOf(c.id).flatMap((m) => {
      const inbox = inboxes.get(m.inboxId);
      return inbox ? [{ ...m, inbox }] : [];
    }),
  }));
}

/** The contact's inbox memberships, each with its inbox (the contact object's contactInboxes). */
export async function getContactInboxes(db: Executor, workspaceId: number, identifier: string): Promise<Contact['contactInboxes']> {
  const contact = await resolveContact(db, workspaceId, identifier);
  const memberships = await contactInboxesForContacts(db, workspaceId, [Number(contact.id)]);
  const inboxes = new Map((await inboxesByIds(db, workspaceId, [...new Set(memberships.map((m) => Number(m.inboxId)))])).map((i) => [i.id, i]));
  return memberships.flatMap((m) => {
    const inbox = inboxes.get(m.inboxId);
    return inbox ? [{ ...m, inbox }] : [];
  });
}

/** What PUT leaves in a field it was not given. */
const clearedFields: EditableContactColumns = {
  email: null,
  phoneNumber: null,
  firstName: null,
  lastName: null,
  gender: 'unknown',
  avatar: null,
  locale: null,
  timezone: null,
  country: null,
  state: null,
  city: null,
  location: null,
  ref: null,
  emailOptIn: false,
};

/** The fields an input gives (a blank text field arrives as undefined: not given). */
const givenFields = (input: UpdateContactInput): Partial<EditableContactColumns> =>
  Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<EditableContactColumns>;

/**
 * Writes the fields to the contact, in the caller's transaction `trx`: uniqueness of email and
 * phone number as on create (the other contacts of the workspace; the unique indexes close the
 * race), and a contact keeps at least one of them (422 validation `emailOrPhoneRequired` when a
 * change would clear both). Every field written moves updatedAt. `contact` is the contact as read
 * in `trx` (locked: resolveContact's `lock`); what changed from it is recorded as events.
 */
async function writeContact(trx: Executor, workspaceId: number, contact: ContactScalars, fields: Partial<EditableContactColumns>): Promise<ContactScalars> {
  if (fields.email !== undefined || fields.phoneNumber !== undefined) {
    const email = fields.email === undefined ? contact.email : fields.email;
    const phone = fields.phoneNumber === undefined ? contact.phoneNumber : fields.phoneNumber;
    if (email === null && phone === null) throw new AppError('validation', { data: { reason: 'emailOrPhoneRequired' } });
  }
  const other = (found: ContactScalars | null) => found !== null && found.id !== contact.id;
  if (fields.email && other(await findContactByEmail(trx, workspaceId, fields.email))) throw duplicate('email');
  if (fields.phoneNumber && other(await findContactByPhone(trx, workspaceId, fields.phoneNumber))) throw duplicate('phoneNumber');
  const updated = await mapDuplicates(() => updateContactFields(trx, workspaceId, Number(contact.id), fields));
  if (!updated) throw notFound('Contact');
  await recordEvents(trx, workspaceId, contactChangeEvents(contact, updated));
  return updated;
}

/** Resolves the contact and writes the fields to it, in one transaction; answers the whole contact. */
async function resolveAndWrite(db: Executor, workspaceId: number, identifier: string, fields: Partial<EditableContactColumns>): Promise<Contact> {
  const updated = await db.transaction().execute(async (trx) => writeContact(trx, workspaceId, await resolveContact(trx, workspaceId, identifier, { lock: true }), fields));
  return (await loadFullContacts(db, workspaceId, [updated]))[0];
}

/** PATCH: only the fields given change; null clears one. */
export async function updateContact(db: Executor, workspaceId: number, identifier: string, input: UpdateContactInput): Promise<Contact> {
  return resolveAndWrite(db, workspaceId, identifier, givenFields(input));
}

/** PUT: every editable field; one not given is cleared (null, gender unknown, emailOptIn false). */
export async function replaceContact(db: Executor, workspaceId: number, identifier: string, input: ReplaceContactInput): Promise<Contact> {
  return resolveAndWrite(db, workspaceId, identifier, { ...clearedFields, ...givenFields(input) });
}

/**
 * Updates the contact the identifier finds (as PATCH), or creates one with the identifier's email
 * or phone number and the given fields. An id identifier (`id:<digits>`, or bare digits, which
 * are an id first) never creates: 404 notFound. Creating needs an identifier that is a valid
 * email or phone number (422 validation `{field: 'identifier', reason: 'notAnEmailOrPhoneNumber'}`),
 * and the body may not give that field another value (422 validation `identifierMismatch`). Two
 * upserts racing to create the same contact: the one that loses updates the winner's contact.
 */
export async function upsertContact(
  db: Executor,
  workspaceId: number,
  identifier: string,
  input: UpdateContactInput,
): Promise<{ created: boolean; contact: Contact }> {
  const lookup = parseIdentifier(identifier);
  const fields = givenFields(input);
  const key = lookup.by === 'email' ? 'email' : 'phoneNumber';
  const full = async (r: { created: boolean; contact: ContactScalars }) => ({ created: r.created, contact: (await loadFullContacts(db, workspaceId, [r.contact]))[0] });
  try {
    // One transaction: the lookup (locking the contact found), then the update or the create, and their events.
    return await full(
      await db.transaction().execute(async (trx) => {
        const found = await findByIdentifier(trx, workspaceId, lookup, { lock: true });
        if (found) return { created: false, contact: await writeContact(trx, workspaceId, found, fields) };
        if (lookup.by === 'id') throw notFound('Contact');

        const parsed = (lookup.by === 'email' ? emailSchema : phoneNumberSchema).safeParse(lookup.by === 'email' ? lookup.email : lookup.phone);
        if (!parsed.success) throw new AppError('validation', { data: { field: 'identifier', reason: 'notAnEmailOrPhoneNumber' } });
        const value = parsed.data;
        const given = fields[key];
        if (given !== undefined && (given === null || given.toLowerCase() !== value.toLowerCase())) {
          throw new AppError('validation', { data: { field: key, reason: 'identifierMismatch' } });
        }
        const all = { ...fields, [key]: value };
        const otherKey = key === 'email' ? 'phoneNumber' : 'email';
        const otherValue = all[otherKey];
        if (otherValue && (await (otherKey === 'email' ? findContactByEmail : findContactByPhone)(trx, workspaceId, otherValue))) throw duplicate(otherKey);
        // A DuplicateContactError here (a race the lookup lost) undoes the transaction: handled below.
        const created = await insertContact(trx, workspaceId, {
          ...all,
          email: all.email ?? null,
          phoneNumber: all.phoneNumber ?? null,
          firstName: all.firstName ?? null,
          lastName: all.lastName ?? null,
        });
        await recordEvents(trx, workspaceId, [newContactEvent(created)]);
        return { created: true, contact: created };
      }),
    );
  } catch (err) {
    if (!(err instanceof DuplicateContactError)) throw err;
    const field = err.field;
    return full(
      await db.transaction().execute(async (trx) => {
        const winner = field === key ? await findByIdentifier(trx, workspaceId, lookup, { lock: true }) : null;
        if (!winner) throw duplicate(field);
        return { created: false, contact: await writeContact(trx, workspaceId, winner, fields) };
      }),
    );
  }
}

/** Deletes the contact and every row of it (see deleteContactsByIds) in one statement. */
export async function deleteContact(db: Executor, workspaceId: number, identifier: string): Promise<{ success: true }> {
  const contact = await resolveContact(db, workspaceId, identifier);
  if ((await deleteContactsByIds(db, workspaceId, [Number(contact.id)])) === 0) throw notFound('Contact');
  return { success: true };
}

/** Sets (block) or clears (unblock) blockedAt; blocking twice keeps the first blockedAt. */
export async function setContactBlockedState(db: Executor, workspaceId: number, identifier: string, blocked: boolean): Promise<Contact> {
  const contact = await resolveContact(db, workspaceId, identifier);
  const changed = await setContactBlocked(db, workspaceId, Number(contact.id), blocked);
  if (!changed) throw notFound('Contact');
  return (await loadFullContacts(db, workspaceId, [changed]))[0];
}

/**
 * Deletes up to 1,000 contacts in one transaction. Any id that is not a contact of the workspace
 * is 404 notFound with `data.ids` naming every such id (as given), and nothing is deleted.
 * Duplicate ids count once.
 */
export async function bulkDeleteContacts(db: Executor, workspaceId: number, input: BulkDeleteContactsInput): Promise<{ success: true; affected: number }> {
  const given = [...new Set(input.contactIds)];
  const keys = given.map((id) => [id, idNumber(id)] as const);
  const wanted = [...new Set(keys.flatMap(([, key]) => (key === null ? [] : [key])))];
  return db.transaction().execute(async (trx) => {
    const existing = new Set(await existingContactIds(trx, workspaceId, wanted));
    const missing = keys.filter(([, key]) => key === null || !existing.has(key)).map(([id]) => id);
    if (missing.length > 0) throw new AppError('notFound', { data: { resource: 'Contact', ids: missing } });
    const affected = await deleteContactsByIds(trx, workspaceId, wanted);
    return { success: true as const, affected };
  });
}
