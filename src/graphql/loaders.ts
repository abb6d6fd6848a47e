import DataLoader from 'dataloader';
import type { Executor } from '../db/database.js';
import { commentAutomationsByIds, type StoredCommentAutomation } from '../domain/comment-automations/comment-automation.repository.js';
import { automationsForPosts, type PostRef } from '../domain/comment-automations/comment-automation.service.js';
import { findContactsByIds } from '../domain/contacts/contact.repository.js';
import { notesByIds, notesForContacts } from '../domain/contacts/contact-note.repository.js';
import { conversationListingsForContacts, conversationsByIds, conversationsForContacts } from '../domain/conversations/conversation.repository.js';
import { customFieldsByIds, fieldValuesForContacts } from '../domain/custom-fields/custom-field.repository.js';
import { valuesCountsByFields } from '../domain/custom-fields/custom-field.repository.js';
import { dynamicImagesByIds } from '../domain/dynamic-images/dynamic-image.repository.js';
import { errorLogsByIds } from '../domain/error-logs/error-log.repository.js';
import { externalWebhooksByIds, webhooksByIds } from '../domain/webhooks/webhook.repository.js';
import { outboxEntriesByIds } from '../domain/outbox/outbox.repository.js';
import { storedThreadsByContactInboxIds, type StoredThread } from '../domain/thread-control/thread-state.repository.js';
import { messagesByIds } from '../domain/messages/message.repository.js';
import { contactMessagesLoader } from './message-loader.js';
import { contactInboxesByIds, contactInboxesForContacts, inboxesByIds, inboxTeamsByIds } from '../domain/inboxes/inbox.repository.js';
import { contactCountsOfInboxes } from '../domain/inboxes/inbox.repository.js';
import { fieldMappingsFor, leadAdAutomationsByIds, sequenceIdsFor, tagIdsFor } from '../domain/lead-ads/lead-ad.repository.js';
import { formsOfPages } from '../domain/lead-ads/lead-page.repository.js';
import { foldersByIds } from '../domain/folders/folder.repository.js';
import { subscriptionsForContacts } from '../domain/sequences/sequence.repository.js';
import { sequencesByIds, subscriberCounts } from '../domain/sequences/sequence.repository.js';
import { flowsByIds } from '../domain/flows/flow.repository.js';
import { groupBy, inKeyOrder } from '../domain/shared/group.js';
import type { LeadForm } from '../domain/lead-ads/lead-page.schema.js';
import { tagListingsForContacts, tagsByIds, tagsForContacts } from '../domain/tags/tag.repository.js';
import { findUsersByIds, type UserRecord } from '../domain/users/user.repository.js';
import { getWorkspace, presentWorkspace } from '../domain/workspaces/workspace.service.js';

/** Many rows per contact: one statement per batch of contact ids, results in key order. */
const perContact = <T extends { contactId: string }>(load: (ids: readonly number[]) => Promise<T[]>) =>
  new DataLoader<number, T[]>(async (ids) => inKeyOrder(ids.map(String), groupBy(await load(ids), (r) => r.contactId)));

/** Many rows per record id: one statement per batch of ids, results in key order. */
const perKey = <T>(load: (ids: readonly number[]) => Promise<T[]>, key: (row: T) => string) =>
  new DataLoader<number, T[]>(async (ids) => inKeyOrder(ids.map(String), groupBy(await load(ids), key)));

/** One row per id (null when absent or in another workspace). */
const byId = <T extends { id: string | number }>(load: (ids: readonly number[]) => Promise<T[]>) =>
  new DataLoader<number, T | null>(async (ids) => {
    const rows = new Map((await load(ids)).map((r) => [String(r.id), r]));
    return ids.map((id) => rows.get(String(id)) ?? null);
  });

/**
 * Per-request DataLoaders, every one scoped to the caller's workspace: a nested page of contacts
 * costs one statement per relation, whatever the page size.
 */
export function createLoaders(db: Executor, workspaceId: number) {
  return {
    customFieldValues: perContact((ids) => fieldValuesForContacts(db, workspaceId, ids)),
    sequences: perContact((ids) => subscriptionsForContacts(db, workspaceId, ids)),
    tags: perContact((ids) => tagsForContacts(db, workspaceId, ids)),
    // The same relations as listings, for a selection of nothing more (src/graphql/listing.ts).
    tagListings: perContact((ids) => tagListingsForContacts(db, workspaceId, ids)),
    notes: perContact((ids) => notesForContacts(db, workspaceId, ids)),
    contactInboxes: perContact((ids) => contactInboxesForContacts(db, workspaceId, ids)),
    conversations: perContact((ids) => conversationsForContacts(db, workspaceId, ids)),
    conversationListings: perContact((ids) => conversationListingsForContacts(db, workspaceId, ids)),
    contact: byId((ids) => findContactsByIds(db, workspaceId, ids)),
    // Two inbox loaders: memberships and conversations arrive from different statements, and on a
    // pooled engine in different ticks; one loader would batch them once or twice depending on
    // timing. One loader per source keeps the statement count fixed.
    inbox: byId((ids) => inboxesByIds(db, workspaceId, ids)),
    conversationInbox: byId((ids) => inboxesByIds(db, workspaceId, ids)),
    team: byId((ids) => inboxTeamsByIds(db, workspaceId, ids)),
    user: byId<UserRecord>((ids) => findUsersByIds(db, workspaceId, ids)),
    // Records by id for node(id:) and nodes(ids:) (src/graphql/node.ts): one statement per type.
    tag: byId((ids) => tagsByIds(db, workspaceId, ids)),
    note: byId((ids) => notesByIds(db, workspaceId, ids)),
    contactInbox: byId((ids) => contactInboxesByIds(db, workspaceId, ids)),
    // ContactInbox.threadState: the thread_states rows of a batch of contact inboxes (null: none, the thread is ours).
    threadState: new DataLoader<number, StoredThread | null>(async (ids) => {
      const rows = new Map((await storedThreadsByContactInboxIds(db, workspaceId, ids)).map((r) => [r.contactInboxId, r]));
      return ids.map((id) => rows.get(id) ?? null);
    }),
    customField: byId((ids) => customFieldsByIds(db, workspaceId, ids)),
    // CustomField.valuesCount: how many contacts have a value, one grouped count per batch of fields.
    customFieldValuesCount: new DataLoader<number, number>(async (ids) => {
      const counts = new Map((await valuesCountsByFields(db, workspaceId, ids)).map((r) => [r.id, r.count]));
      return ids.map((id) => counts.get(String(id)) ?? 0);
    }),
    conversation: byId((ids) => conversationsByIds(db, workspaceId, ids)),
    commentAutomation: byId((ids) => commentAutomationsByIds(db, workspaceId, ids)),
    // ChannelPost.inbox and ChannelPost.automations (the automations whose post selector takes the post).
    channelPostInbox: byId((ids) => inboxesByIds(db, workspaceId, ids)),
    channelPostAutomations: new DataLoader<PostRef, StoredCommentAutomation[], string>((posts) => automationsForPosts(db, workspaceId, posts), {
      cacheKeyFn: (p) => `${p.channel}:${p.id}`,
    }),
    leadAdAutomation: byId((ids) => leadAdAutomationsByIds(db, workspaceId, ids)),
    // A lead-ad automation's mappings, tag ids and sequence ids (the records through tag, sequence
    // and customField), and a lead page's forms: one statement per batch.
    leadAdFieldMappings: perKey((ids) => fieldMappingsFor(db, workspaceId, ids), (r) => r.automationId),
    leadAdTagIds: perKey((ids) => tagIdsFor(db, workspaceId, ids), (r) => r.automationId),
    leadAdSequenceIds: perKey((ids) => sequenceIdsFor(db, workspaceId, ids), (r) => r.automationId),
    leadPageForms: new DataLoader<string, LeadForm[]>(async (pageIds) => inKeyOrder(pageIds, groupBy(await formsOfPages(db, workspaceId, pageIds), (f) => f.pageId))),
    dynamicImage: byId((ids) => dynamicImagesByIds(db, workspaceId, ids)),
    errorLog: byId((ids) => errorLogsByIds(db, workspaceId, ids)),
    webhook: byId((ids) => webhooksByIds(db, workspaceId, ids)),
    externalWebhook: byId((ids) => externalWebhooksByIds(db, workspaceId, ids)),
    outboxEntry: byId((ids) => outboxEntriesByIds(db, workspaceId, ids)),
    // Message nodes, and Contact.messages: one statement per window asked for, whatever the number of contacts.
    message: byId((ids) => messagesByIds(db, workspaceId, ids)),
    contactMessages: contactMessagesLoader(db, workspaceId),
    sequence: byId((ids) => sequencesByIds(db, workspaceId, ids)),
    // Sequence.folder and folder nodes: one statement per batch, each kind only its own folders.
    sequenceFolder: byId((ids) => foldersByIds(db, workspaceId, 'sequence', ids)),
    commentAutomationFolder: byId((ids) => foldersByIds(db, workspaceId, 'commentAutomation', ids)),
    flow: byId((ids) => flowsByIds(db, workspaceId, ids)),
    // Sequence.subscribersCount: one grouped count per batch of sequences.
    sequenceSubscribersCount: new DataLoader<number, number>(async (ids) => {
      const counts = await subscriberCounts(db, workspaceId, ids);
      return ids.map((id) => counts.get(id) ?? 0);
    }),
    // Inbox.contactsCount: one grouped count per batch of inboxes.
    inboxContactsCount: new DataLoader<number, number>(async (ids) => {
      const counts = new Map((await contactCountsOfInboxes(db, workspaceId, ids)).map((r) => [r.inboxId, r.count]));
      return ids.map((id) => counts.get(id) ?? 0);
    }),
    // Only the caller's own workspace is ever found.
    workspace: byId(async (ids) => (ids.includes(workspaceId) ? [presentWorkspace(await getWorkspace(db, workspaceId))] : [])),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
