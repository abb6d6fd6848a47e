import DataLoader from 'dataloader';
import type { Executor } from '../db/database.js';
import { messagesOfContacts, type MessageListFilters } from '../domain/messages/message.repository.js';
import type { Message } from '../domain/messages/message.schema.js';
import { groupBy } from '../domain/shared/group.js';

/** One contact's page of Contact.messages: `limit` rows (one more than asked, to learn of a next page) below `before`. */
export interface ContactMessagesKey {
  contactId: number;
  limit: number;
  before?: number;
  filters: MessageListFilters;
}

const windowOf = (k: ContactMessagesKey) => JSON.stringify([k.limit, k.before ?? null, k.filters.inboxId ?? null, k.filters.direction ?? null]);

/**
 * Contact.messages on a page of contacts: the contacts that ask for the same window (the same
 * arguments) are read in one statement (messagesOfContacts ranks each contact's messages), so the
 * statement count does not grow with the number of contacts.
 */
export const contactMessagesLoader = (db: Executor, workspaceId: number) =>
  new DataLoader<ContactMessagesKey, Message[], string>(
    async (keys) => {
      const answers = new Map<string, Message[]>();
      for (const [window, group] of groupBy(keys, windowOf)) {
        const { limit, before, filters } = group[0];
        const byContact = groupBy(await messagesOfContacts(db, workspaceId, group.map((k) => k.contactId), filters, { limit, before }), (m) => m.contactId);
        for (const k of group) answers.set(`${k.contactId}:${window}`, byContact.get(String(k.contactId)) ?? []);
      }
      return keys.map((k) => answers.get(`${k.contactId}:${windowOf(k)}`) ?? []);
    },
    { cacheKeyFn: (k) => `${k.contactId}:${windowOf(k)}` },
  );
