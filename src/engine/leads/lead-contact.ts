import type { Executor } from '../../db/database.js';
import { findContactByEmail, findContactById, findContactByPhone, insertContact, lockContactRow, updateContactFields, type EditableContactColumns } from '../../domain/contacts/contact.repository.js';
import type { ContactScalars } from '../../domain/contacts/contact.schema.js';
import type { EventInbox } from '../../domain/events/channel-event.repository.js';
import { insertContactInboxIfMissing } from '../../domain/inboxes/inbox.repository.js';
import { ensureConversation, overMacLimit } from '../../domain/contacts/contact-link.service.js';
import { contactChangeEvents } from '../../domain/contacts/contact.service.js';
import type { NewEvent } from '../../domain/workspace-events/workspace-event.schema.js';
import type { LeadPerson } from './lead-answers.js';

/**
 * The lead's contact; `events`: what updating an existing one changed (contactInfoUpdated), for
 * the caller to record with the rest of the lead (a created one's newContact is the caller's to
 * record, once its mapped values are stored).
 */
export type LeadContact = { contact: ContactScalars; conversationId: number; created: boolean; events: NewEvent[] } | 'macLimitReached';

/** The workspace's contact with the lead's email (any case), else its phone number; null for a new person. */
async function matchingContact(trx: Executor, workspaceId: number, who: LeadPerson): Promise<ContactScalars | null> {
  if (who.email) {
    const byEmail = await findContactByEmail(trx, workspaceId, who.email);
    if (byEmail) return byEmail;
  }
  return who.phoneNumber ? findContactByPhone(trx, workspaceId, who.phoneNumber) : null;
}

/**
 * The lead's contact, created or updated, with a contact inbox in the page's inbox and a
 * conversation there; run inside the caller's transaction. An existing contact takes the lead's
 * email and phone number (unless another contact of the workspace has that value: the lead is not
 * merged into two contacts) and its names where it has none. A workspace at its MAC limit creates
 * nothing for a person who does not already count this month.
 *
 * Two leads of one new person at once: the second insert hits the unique email (or phone) index
 * and raises DuplicateContactError; the caller runs its transaction again, which then finds the
 * first lead's contact. The contact inbox has no network source id: a lead names no page-scoped
 * user, so it is left null (never matched by events; unique per contact and inbox).
 */
export async function upsertLeadContact(trx: Executor, inbox: EventInbox, who: LeadPerson): Promise<LeadContact> {
  const workspaceId = inbox.workspaceId;
  const existing = await matchingContact(trx, workspaceId, who);
  if (await overMacLimit(trx, workspaceId, existing ? Number(existing.id) : null)) return 'macLimitReached';
  let contact: ContactScalars;
  let created = false;
  let events: NewEvent[] = [];
  if (existing) {
    // Leads of one known person at once take turns (PostgreSQL; SQLite runs one writer at a time):
    // the second sees the first's contact inbox and conversation instead of making its own.
    await lockContactRow(trx, workspaceId, Number(existing.id));
    const fields: Partial<EditableContactColumns> = {};
    const freeFor = async (found: Promise<ContactScalars | null>) => {
      const other = await found;
      return other === null || other.id === existing.id;
    };
    if (who.email && existing.email?.toLowerCase() !== who.email.toLowerCase() && (await freeFor(findContactByEmail(trx, workspaceId, who.email)))) fields.email = who.email;
    if (who.phoneNumber && existing.phoneNumber !== who.phoneNumber && (await freeFor(findContactByPhone(trx, workspaceId, who.phoneNumber)))) fields.phoneNumber = who.phoneNumber;
    if (who.firstName && !existing.firstName) fields.firstName = who.firstName;
    if (who.lastName && !existing.lastName) fields.lastName = who.lastName;
    contact = Object.keys(fields).length > 0 ? ((await updateContactFields(trx, workspaceId, Number(existing.id), fields)) ?? existing) : existing;
    events = contactChangeEvents(existing, contact);
  } else {
    contact = await insertContact(trx, workspaceId, { email: who.email, phoneNumber: who.phoneNumber, firstName: who.firstName, lastName: who.lastName });
    created = true;
  }
  const contactId = Number(contact.id);
  await insertContactInboxIfMissing(trx, workspaceId, { contactId, inboxId: inbox.id, channel: inbox.channel });
  const conversationId = await ensureConversation(trx, workspaceId, contactId, inbox.id);
  return { contact: (await findContactById(trx, workspaceId, contactId)) ?? contact, conversationId, created, events };
}
