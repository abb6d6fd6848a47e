import type { Executor } from '../../db/database.js';
import { fetchPage, type Page, type PageRequest } from '../shared/pagination.js';
import { countOutboxEntries, insertOutboxEntry, listOutboxEntries } from './outbox.repository.js';
import type { NewOutboxEntry, OutboxEntry, OutboxFilter } from './outbox.schema.js';

/**
 * Records one outgoing action (the sandbox adapter's "send"). One statement, so it needs no
 * transaction of its own and joins the caller's when given one.
 */
export const recordOutboxEntry = (db: Executor, workspaceId: number, entry: NewOutboxEntry): Promise<OutboxEntry> => insertOutboxEntry(db, workspaceId, entry);

/** A page of the workspace's outbox, newest first, filtered by contact, automation, action and channel. */
export const listOutboxPage = (db: Executor, workspaceId: number, p: PageRequest & OutboxFilter): Promise<Page<OutboxEntry>> => {
  const filter: OutboxFilter = { contactId: p.contactId, automationId: p.automationId, automationKind: p.automationKind, action: p.action, channel: p.channel };
  return fetchPage(p, () => countOutboxEntries(db, workspaceId, filter), (w) => listOutboxEntries(db, workspaceId, filter, w));
};
