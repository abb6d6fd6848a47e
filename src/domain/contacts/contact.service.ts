import type { Executor } from '../../db/database.js';
import { AppError, notFound } from '../../errors/catalogue.js';
import { fieldValuesForContacts, valuesForContacts } from '../custom-fields/custom-field.repository.js';
import { contactInboxesForContacts, inboxesByIds } from '../inboxes/inbox.repository.js';
import { subscriptionsForContacts } from '../sequences/sequence.repository.js';
import { tagsForContacts } from '../tags/tag.repository.js';
import { notesForContacts } from './contact-note.repository.js';
import {
  DuplicateContactError,
  findContactByEmail,
  findContactById,
  findContactByPhone,
  insertContact,
} from './contact.repository.js';
import type { Contact, ContactScalars, CreateContactInput } from './contact.schema.js';
import { parseIdentifier } from './identifier.js';
import { groupBy } from '../shared/group.js';

/** Resolves the contract's contact identifier (see identifier.ts) or throws 404 notFound. */
export async function resolveContact(db: Executor, workspaceId: number, identifier: string): Promise<ContactScalars> {
  const lookup = parseIdentifier(identifier);
  let found: ContactScalars | null = null;
  if (lookup.by === 'id') {
    if (lookup.id !== null) found = await findContactById(db, workspaceId, lookup.id);
    if (!found && lookup.orPhone) found = await findContactByPhone(db, workspaceId, lookup.orPhone);
  } else if (lookup.by === 'email') {
    found = await findContactByEmail(db, workspaceId, lookup.email);
  } else {
    found = await findContactByPhone(db, workspaceId, lookup.phone);
  }
  if (!found) throw notFound('Contact');
  return found;
}

/** 422 validation: `data.field` names the field whose value another contact of the workspace has. */
const duplicate = (field: 'email' | 'phoneNumber') => new AppError('validation', { data: { field, reason: 'alreadyExists' } });

/**
 * Creates a contact; email and phone number are unique per workspace (email case-insensitively).
 * The pre-check names the field; the unique indexes close the race between two creates.
 * Input arrives validated by `createContactInput` (REST router or GraphQL validation plugin).
 */
export async function createContact(db: Executor, workspaceId: number, data: CreateContactInput): Promise<Contact> {
  if (data.email !== undefined && (await findContactByEmail(db, workspaceId, data.email))) throw duplicate('email');
  if (data.phoneNumber !== undefined && (await findContactByPhone(db, workspaceId, data.phoneNumber))) throw duplicate('phoneNumber');
  let created: ContactScalars;
  try {
    created = await insertContact(db, workspaceId, {
      email: data.email ?? null,
      phoneNumber: data.phoneNumber ?? null,
      firstName: data.firstName ?? null,
      lastName: data.lastName ?? null,
    });
  } catch (err) {
    if (err instanceof DuplicateContactError) throw duplicate(err.field);
    throw err;
  }
  return (await loadFullContacts(db, workspaceId, [created]))[0];
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

export async function getContactCustomFields(db: Executor, workspaceId: number, identifier: string) {
  const contact = await resolveContact(db, workspaceId, identifier);
  const rows = await fieldValuesForContacts(db, workspaceId, [Number(contact.id)]);
  return rows.map(({ contactId: _omit, ...row }) => row);
}

export async function getContactSequences(db: Executor, workspaceId: number, identifier: string) {
  const contact = await resolveContact(db, workspaceId, identifier);
  const rows = await subscriptionsForContacts(db, workspaceId, [Number(contact.id)]);
  return rows.map(({ contactId: _omit, ...row }) => row);
}
