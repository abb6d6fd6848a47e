import type { Scope } from '../../src/domain/auth/scopes.js';
import {
  CommentAutomationDocument,
  CommentAutomationsDocument,
  ContactByIdentifierDocument,
  ContactIdsDocument,
  ConversationDocument,
  ConversationsDocument,
  CreateContactDocument,
  CreatePhotoCommentAutomationDocument,
  DynamicImagesDocument,
  ErrorLogsDocument,
  FollowConversationDocument,
  TagsDocument,
  UnfollowConversationDocument,
  WorkspaceDocument,
  type CreatePhotoCommentAutomationInput,
} from '../graphql/generated/graphql.js';
import { fixtures, photoCommentBody } from './fixtures.js';
import { commentAutomationOperations } from './graphql-operations/comment-automations.js';
import { leadAdOperations } from './graphql-operations/lead-ads.js';
import { conversationOperations } from './graphql-operations/conversations.js';
import { dynamicImageOperations } from './graphql-operations/dynamic-images.js';
import { outboxOperations } from './graphql-operations/outbox.js';
import { commentEventOperations } from './graphql-operations/comment-events.js';
import { messageOperations } from './graphql-operations/messages.js';
import { devEventOperations } from './graphql-operations/dev-events.js';
import { webhookOperations } from './graphql-operations/webhooks.js';
import { contactTransferOperations } from './graphql-operations/contact-transfers.js';
import { folderOperations } from './graphql-operations/folders.js';
import { flowOperations } from './graphql-operations/flows.js';
import { sequenceStepOperations } from './graphql-operations/sequence-steps.js';
import { threadControlOperations } from './graphql-operations/thread-control.js';
import { gql, type GraphQLBody } from './graphql.js';
import type { RequestOptions, TestApp, TestResponse } from './harness.js';

/**
 * Every Query and Mutation field, each able to make a call that succeeds for a permitted token:
 * `prepare` inserts what the call needs (a contact, a conversation to unfollow, a lead-ad
 * automation to delete) and returns the call. The GraphQL auth and plan-gate tests drive every
 * field through this table, and a test checks it names every root field of the schema.
 */
export interface GraphQLOperation {
  /** The root field, e.g. `Mutation.createContact`. */
  field: string;
  action: 'read' | 'write' | 'delete';
  /** The area's scope; null when every token may call the field whatever its scopes (`token`). */
  scope: Scope | null;
  workspaceTokensOnly: boolean;
  prepare: (t: TestApp, workspaceId: number) => Promise<(options: RequestOptions) => Promise<TestResponse<GraphQLBody<unknown>>>>;
}

let serial = 0;
export const unique = () => `${process.pid}-${++serial}`;

/** The photo-comment body of the REST tests, as GraphQL input (enum values are the same words here). */
export const photoCommentInput = () => photoCommentBody() as unknown as CreatePhotoCommentAutomationInput;

export const conversationOf = async (t: TestApp, ws: number) => {
  const f = fixtures(t.db, ws);
  return String(await f.conversation({ contactId: await f.contact({ email: `c-${unique()}@example.com` }) }));
};

/** A call of a raw document with fixed variables. */
export const call =
  (t: TestApp, query: string, variables: Record<string, unknown> = {}) =>
  (o: RequestOptions) =>
    t.graphql<GraphQLBody<unknown>>(query, variables, o);

/** A fresh contact of the workspace (a new address each time), as its plain id. */
const contactOf = async (t: TestApp, ws: number) => String(await fixtures(t.db, ws).contact({ email: `c-${unique()}@example.com` }));

/** A fresh contact and a fresh custom field (its value set when `value` is given), as plain ids. */
const contactWithField = async (t: TestApp, ws: number, value?: string) => {
  const f = fixtures(t.db, ws);
  const contact = await f.contact({ email: `c-${unique()}@example.com` });
  const field = await f.customField(`Field ${unique()}`);
  if (value !== undefined) await f.fieldValue(contact, field, value);
  return { contact: String(contact), field: String(field) };
};

/** A fresh contact with a fresh tag (on the contact when `tagged`), as plain ids. */
const contactAndTag = async (t: TestApp, ws: number, tagged = false) => {
  const f = fixtures(t.db, ws);
  const contact = await f.contact({ email: `c-${unique()}@example.com` });
  const tag = await f.tag(`tag-${unique()}`);
  if (tagged) await f.tagContact(contact, tag);
  return { contact: String(contact), tag: String(tag) };
};

/** A fresh contact with a fresh sequence (subscribed when `subscribed`), as plain ids. */
const contactAndSequence = async (t: TestApp, ws: number, subscribed = false) => {
  const f = fixtures(t.db, ws);
  const contact = await f.contact({ email: `c-${unique()}@example.com` });
  const sequence = await f.sequence(`Sequence ${unique()}`);
  if (subscribed) await f.subscribe(contact, sequence);
  return { contact: String(contact), sequence: String(sequence) };
};

/** A fresh contact with a note, as plain ids. */
const contactWithNote = async (t: TestApp, ws: number) => {
  const f = fixtures(t.db, ws);
  const contact = await f.contact({ email: `c-${unique()}@example.com` });
  return { contact: String(contact), note: String(await f.note(contact, `Note ${unique()}`)) };
};

export const operations: GraphQLOperation[] = [
  { field: 'Query.workspace', action: 'read', scope: 'workspace', workspaceTokensOnly: true, prepare: async (t) => (o) => gql(t, WorkspaceDocument, {}, o) },
  { field: 'Query.tags', action: 'read', scope: 'tags', workspaceTokensOnly: false, prepare: async (t) => (o) => gql(t, TagsDocument, {}, o) },
  {
    field: 'Query.contact',
    action: 'read',
    scope: 'contacts',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const identifier = String(await fixtures(t.db, ws).contact({ email: `c-${unique()}@example.com` }));
      return (o) => gql(t, ContactByIdentifierDocument, { identifier }, o);
    },
  },
  { field: 'Query.contacts', action: 'read', scope: 'contacts', workspaceTokensOnly: false, prepare: async (t) => (o) => gql(t, ContactIdsDocument, { first: 5 }, o) },
  {
    field: 'Query.commentAutomation',
    action: 'read',
    scope: 'automations',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const id = String(await fixtures(t.db, ws).commentAutomation('net', 'Page FAQ'));
      return (o) => gql(t, CommentAutomationDocument, { id, channel: 'net' }, o);
    },
  },
  {
    field: 'Query.commentAutomations',
    action: 'read',
    scope: 'automations',
    workspaceTokensOnly: false,
    prepare: async (t) => (o) => gql(t, CommentAutomationsDocument, {}, o),
  },
  {
    field: 'Query.dynamicImages',
    action: 'read',
    scope: 'dynamic_images',
    workspaceTokensOnly: false,
    prepare: async (t) => (o) => gql(t, DynamicImagesDocument, {}, o),
  },
  { field: 'Query.errorLogs', action: 'read', scope: 'error_logs', workspaceTokensOnly: false, prepare: async (t) => (o) => gql(t, ErrorLogsDocument, {}, o) },
  {
    field: 'Query.conversation',
    action: 'read',
    scope: 'conversations',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const id = await conversationOf(t, ws);
      return (o) => gql(t, ConversationDocument, { id }, o);
    },
  },
  {
    field: 'Query.conversations',
    action: 'read',
    scope: 'conversations',
    workspaceTokensOnly: false,
    prepare: async (t) => (o) => gql(t, ConversationsDocument, {}, o),
  },
  {
    field: 'Mutation.createContact',
    action: 'write',
    scope: 'contacts',
    workspaceTokensOnly: true,
    prepare: async (t) => {
      // A new address per call, so a repeated call is a new contact rather than a duplicate.
      return (o) => gql(t, CreateContactDocument, { input: { email: `new-${unique()}@example.com`, firstName: 'Ada' } }, o);
    },
  },
  {
    field: 'Mutation.createPhotoCommentAutomation',
    action: 'write',
    scope: 'automations',
    workspaceTokensOnly: false,
    prepare: async (t) => (o) => gql(t, CreatePhotoCommentAutomationDocument, { input: photoCommentInput() }, o),
  },
  {
    field: 'Mutation.unfollowConversation',
    action: 'write',
    scope: 'conversations',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const id = await conversationOf(t, ws);
      return (o) => gql(t, UnfollowConversationDocument, { id }, o);
    },
  },
  {
    field: 'Mutation.followConversation',
    action: 'write',
    scope: 'conversations',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const id = await conversationOf(t, ws);
      return (o) => gql(t, FollowConversationDocument, { id }, o);
    },
  },

  // Contacts: lists, search helpers, the record and its notes (scope contacts).
  { field: 'Query.contactsCount', action: 'read', scope: 'contacts', workspaceTokensOnly: false, prepare: async (t) => call(t, '{ contactsCount }') },
  {
    field: 'Query.contactFilterFields',
    action: 'read',
    scope: 'contacts',
    workspaceTokensOnly: false,
    prepare: async (t) => call(t, '{ contactFilterFields { field } }'),
  },
  {
    field: 'Query.contactFilterValueLabels',
    action: 'read',
    scope: 'contacts',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const tag = String(await fixtures(t.db, ws).tag(`tag-${unique()}`));
      return call(t, 'query ($values: [ContactFilterValueInput!]!) { contactFilterValueLabels(values: $values) { field value label } }', {
        values: [{ field: 'tags', value: tag }],
      });
    },
  },
  {
    field: 'Query.contactNotes',
    action: 'read',
    scope: 'contacts',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const { contact } = await contactWithNote(t, ws);
      return call(t, 'query ($identifier: String!) { contactNotes(identifier: $identifier) { pageCount data { rawId } } }', { identifier: contact });
    },
  },
  {
    field: 'Mutation.updateContact',
    action: 'write',
    scope: 'contacts',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const identifier = await contactOf(t, ws);
      return call(t, 'mutation ($identifier: String!, $input: ContactFieldsInput!) { updateContact(identifier: $identifier, input: $input) { rawId } }', {
        identifier,
        input: { firstName: 'Ada' },
      });
    },
  },
  {
    field: 'Mutation.replaceContact',
    action: 'write',
    scope: 'contacts',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const email = `c-${unique()}@example.com`;
      const identifier = String(await fixtures(t.db, ws).contact({ email }));
      return call(t, 'mutation ($identifier: String!, $input: ContactFieldsInput!) { replaceContact(identifier: $identifier, input: $input) { rawId } }', {
        identifier,
        input: { email, firstName: 'Ada' },
      });
    },
  },
  {
    field: 'Mutation.upsertContact',
    action: 'write',
    scope: 'contacts',
    workspaceTokensOnly: false,
    // An address no contact has: the first permitted call creates the contact, a repeat updates it.
    prepare: async (t) =>
      call(t, 'mutation ($identifier: String!, $input: ContactFieldsInput!) { upsertContact(identifier: $identifier, input: $input) { created contact { rawId } } }', {
        identifier: `u-${unique()}@example.com`,
        input: { firstName: 'Ada' },
      }),
  },
  {
    field: 'Mutation.deleteContact',
    action: 'delete',
    scope: 'contacts',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => call(t, 'mutation ($identifier: String!) { deleteContact(identifier: $identifier) { success } }', { identifier: await contactOf(t, ws) }),
  },
  {
    field: 'Mutation.blockContact',
    action: 'write',
    scope: 'contacts',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => call(t, 'mutation ($identifier: String!) { blockContact(identifier: $identifier) { rawId blockedAt } }', { identifier: await contactOf(t, ws) }),
  },
  {
    field: 'Mutation.unblockContact',
    action: 'write',
    scope: 'contacts',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => call(t, 'mutation ($identifier: String!) { unblockContact(identifier: $identifier) { rawId blockedAt } }', { identifier: await contactOf(t, ws) }),
  },
  {
    field: 'Mutation.bulkDeleteContacts',
    action: 'delete',
    scope: 'contacts',
    workspaceTokensOnly: false,
    prepare: async (t, ws) =>
      call(t, 'mutation ($ids: [ID!]!) { bulkDeleteContacts(contactIds: $ids) { success affected } }', { ids: [await contactOf(t, ws), await contactOf(t, ws)] }),
  },
  {
    field: 'Mutation.createContactNote',
    action: 'write',
    scope: 'contacts',
    workspaceTokensOnly: false,
    prepare: async (t, ws) =>
      call(t, 'mutation ($identifier: String!, $text: String!) { createContactNote(identifier: $identifier, text: $text) { rawId } }', {
        identifier: await contactOf(t, ws),
        text: 'Called back',
      }),
  },
  {
    field: 'Mutation.updateContactNote',
    action: 'write',
    scope: 'contacts',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const { contact, note } = await contactWithNote(t, ws);
      return call(t, 'mutation ($identifier: String!, $noteId: ID!, $text: String!) { updateContactNote(identifier: $identifier, noteId: $noteId, text: $text) { rawId text } }', {
        identifier: contact,
        noteId: note,
        text: 'Edited',
      });
    },
  },
  {
    field: 'Mutation.deleteContactNote',
    action: 'delete',
    scope: 'contacts',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const { contact, note } = await contactWithNote(t, ws);
      return call(t, 'mutation ($identifier: String!, $noteId: ID!) { deleteContactNote(identifier: $identifier, noteId: $noteId) { success } }', { identifier: contact, noteId: note });
    },
  },

  // Custom field definitions (scope custom_fields) and a contact's values (scope contacts).
  {
    field: 'Query.customFields',
    action: 'read',
    scope: 'custom_fields',
    workspaceTokensOnly: false,
    prepare: async (t) => call(t, '{ customFields { pageCount data { rawId valuesCount } } }'),
  },
  {
    field: 'Query.customField',
    action: 'read',
    scope: 'custom_fields',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const name = `Field ${unique()}`;
      await fixtures(t.db, ws).customField(name);
      return call(t, 'query ($idOrName: String!) { customField(idOrName: $idOrName) { rawId name } }', { idOrName: name });
    },
  },
  {
    field: 'Mutation.createCustomField',
    action: 'write',
    scope: 'custom_fields',
    workspaceTokensOnly: false,
    // A new name per call: names are unique in the workspace.
    prepare: async (t) => (o) =>
      t.graphql<GraphQLBody<unknown>>('mutation ($input: CreateCustomFieldInput!) { createCustomField(input: $input) { rawId } }', { input: { name: `Field ${unique()}`, type: 'number' } }, o),
  },
  {
    field: 'Mutation.updateCustomField',
    action: 'write',
    scope: 'custom_fields',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const id = String(await fixtures(t.db, ws).customField(`Field ${unique()}`));
      return call(t, 'mutation ($id: ID!, $input: UpdateCustomFieldInput!) { updateCustomField(id: $id, input: $input) { rawId description } }', { id, input: { description: 'Edited' } });
    },
  },
  {
    field: 'Mutation.deleteCustomField',
    action: 'delete',
    scope: 'custom_fields',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const id = String(await fixtures(t.db, ws).customField(`Field ${unique()}`));
      return call(t, 'mutation ($id: ID!) { deleteCustomField(id: $id) { success } }', { id });
    },
  },
  {
    field: 'Query.contactCustomField',
    action: 'read',
    scope: 'contacts',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const { contact, field } = await contactWithField(t, ws, 'gold');
      return call(t, 'query ($identifier: String!, $idOrName: String!) { contactCustomField(identifier: $identifier, idOrName: $idOrName) { rawId value } }', {
        identifier: contact,
        idOrName: field,
      });
    },
  },
  {
    field: 'Query.findContactsByCustomField',
    action: 'read',
    scope: 'contacts',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const { field } = await contactWithField(t, ws, 'gold');
      return call(t, 'query ($customFieldId: ID!, $value: String!) { findContactsByCustomField(customFieldId: $customFieldId, value: $value) { pageCount data { rawId } } }', {
        customFieldId: field,
        value: 'gold',
      });
    },
  },
  {
    field: 'Mutation.setContactCustomField',
    action: 'write',
    scope: 'contacts',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const { contact, field } = await contactWithField(t, ws);
      return call(t, 'mutation ($identifier: String!, $idOrName: String!, $value: String) { setContactCustomField(identifier: $identifier, idOrName: $idOrName, value: $value) { value } }', {
        identifier: contact,
        idOrName: field,
        value: 'gold',
      });
    },
  },
  {
    field: 'Mutation.setContactCustomFields',
    action: 'write',
    scope: 'contacts',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const { contact, field } = await contactWithField(t, ws);
      return call(t, 'mutation ($identifier: String!, $operations: [CustomFieldOperationInput!]!) { setContactCustomFields(identifier: $identifier, operations: $operations) { rawId value } }', {
        identifier: contact,
        operations: [{ op: 'set', customFieldId: field, value: 'gold' }],
      });
    },
  },
  {
    field: 'Mutation.clearContactCustomField',
    action: 'delete',
    scope: 'contacts',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const { contact, field } = await contactWithField(t, ws, 'gold');
      return call(t, 'mutation ($identifier: String!, $idOrName: String!) { clearContactCustomField(identifier: $identifier, idOrName: $idOrName) { success } }', {
        identifier: contact,
        idOrName: field,
      });
    },
  },
  {
    field: 'Mutation.clearContactCustomFields',
    action: 'delete',
    scope: 'contacts',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const { contact } = await contactWithField(t, ws, 'gold');
      return call(t, 'mutation ($identifier: String!) { clearContactCustomFields(identifier: $identifier) { success } }', { identifier: contact });
    },
  },

  // Tags (scope tags) and a contact's tags (scope contacts).
  {
    field: 'Query.tag',
    action: 'read',
    scope: 'tags',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const name = `tag-${unique()}`;
      await fixtures(t.db, ws).tag(name);
      return call(t, 'query ($idOrName: String!) { tag(idOrName: $idOrName) { rawId name } }', { idOrName: name });
    },
  },
  {
    field: 'Mutation.createTag',
    action: 'write',
    scope: 'tags',
    workspaceTokensOnly: false,
    // A new name per call: live tag names are unique.
    prepare: async (t) => (o) => t.graphql<GraphQLBody<unknown>>('mutation ($input: CreateTagInput!) { createTag(input: $input) { rawId } }', { input: { name: `tag-${unique()}` } }, o),
  },
  {
    field: 'Mutation.updateTag',
    action: 'write',
    scope: 'tags',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const id = String(await fixtures(t.db, ws).tag(`tag-${unique()}`));
      return (o) => t.graphql<GraphQLBody<unknown>>('mutation ($id: ID!, $input: UpdateTagInput!) { updateTag(id: $id, input: $input) { rawId name } }', { id, input: { name: `tag-${unique()}` } }, o);
    },
  },
  {
    field: 'Mutation.deleteTag',
    action: 'delete',
    scope: 'tags',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const id = String(await fixtures(t.db, ws).tag(`tag-${unique()}`));
      return call(t, 'mutation ($id: ID!) { deleteTag(id: $id) { success } }', { id });
    },
  },
  {
    field: 'Mutation.addContactTags',
    action: 'write',
    scope: 'contacts',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const { contact, tag } = await contactAndTag(t, ws);
      return call(t, 'mutation ($identifier: String!, $tagIds: [ID!]!) { addContactTags(identifier: $identifier, tagIds: $tagIds) { success } }', { identifier: contact, tagIds: [tag] });
    },
  },
  {
    field: 'Mutation.removeContactTags',
    action: 'delete',
    scope: 'contacts',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const { contact, tag } = await contactAndTag(t, ws, true);
      return call(t, 'mutation ($identifier: String!, $tagIds: [ID!]!) { removeContactTags(identifier: $identifier, tagIds: $tagIds) { success } }', { identifier: contact, tagIds: [tag] });
    },
  },
  {
    field: 'Mutation.setContactTags',
    action: 'write',
    scope: 'contacts',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const { contact, tag } = await contactAndTag(t, ws);
      return call(t, 'mutation ($identifier: String!, $tagIds: [ID!]!) { setContactTags(identifier: $identifier, tagIds: $tagIds) { success } }', { identifier: contact, tagIds: [tag] });
    },
  },
  {
    field: 'Mutation.addContactTagsByName',
    action: 'write',
    scope: 'contacts',
    workspaceTokensOnly: false,
    // One name a live tag has and one no tag has (created by the call).
    prepare: async (t, ws) => {
      const name = `tag-${unique()}`;
      await fixtures(t.db, ws).tag(name);
      const identifier = await contactOf(t, ws);
      return call(t, 'mutation ($identifier: String!, $names: [String!]!) { addContactTagsByName(identifier: $identifier, names: $names) { success } }', {
        identifier,
        names: [name, `tag-${unique()}`],
      });
    },
  },
  {
    field: 'Mutation.bulkAddContactTags',
    action: 'write',
    scope: 'contacts',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const { contact, tag } = await contactAndTag(t, ws);
      return call(t, 'mutation ($contactIds: [ID!]!, $tagIds: [ID!]!) { bulkAddContactTags(contactIds: $contactIds, tagIds: $tagIds) { success affected } }', {
        contactIds: [contact],
        tagIds: [tag],
      });
    },
  },

  // Sequences (scope sequences) and a contact's subscriptions (scope contacts).
  {
    field: 'Query.sequences',
    action: 'read',
    scope: 'sequences',
    workspaceTokensOnly: false,
    prepare: async (t) => call(t, '{ sequences { pageCount data { rawId subscribersCount } } }'),
  },
  {
    field: 'Query.sequence',
    action: 'read',
    scope: 'sequences',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const id = String(await fixtures(t.db, ws).sequence(`Sequence ${unique()}`));
      return call(t, 'query ($id: ID!) { sequence(id: $id) { rawId name subscribersCount } }', { id });
    },
  },
  {
    field: 'Mutation.createSequence',
    action: 'write',
    scope: 'sequences',
    workspaceTokensOnly: false,
    prepare: async (t) => (o) => t.graphql<GraphQLBody<unknown>>('mutation ($input: CreateSequenceInput!) { createSequence(input: $input) { rawId } }', { input: { name: `Sequence ${unique()}` } }, o),
  },
  {
    field: 'Mutation.updateSequence',
    action: 'write',
    scope: 'sequences',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const id = String(await fixtures(t.db, ws).sequence(`Sequence ${unique()}`));
      return call(t, 'mutation ($id: ID!, $input: UpdateSequenceInput!) { updateSequence(id: $id, input: $input) { rawId isActive } }', { id, input: { isActive: false } });
    },
  },
  {
    field: 'Mutation.deleteSequence',
    action: 'delete',
    scope: 'sequences',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const id = String(await fixtures(t.db, ws).sequence(`Sequence ${unique()}`));
      return call(t, 'mutation ($id: ID!) { deleteSequence(id: $id) { success } }', { id });
    },
  },
  {
    field: 'Mutation.subscribeContactSequences',
    action: 'write',
    scope: 'contacts',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const { contact, sequence } = await contactAndSequence(t, ws);
      return call(t, 'mutation ($identifier: String!, $ids: [ID!]!) { subscribeContactSequences(identifier: $identifier, sequenceIds: $ids) { success } }', { identifier: contact, ids: [sequence] });
    },
  },
  {
    field: 'Mutation.unsubscribeContactSequences',
    action: 'delete',
    scope: 'contacts',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const { contact, sequence } = await contactAndSequence(t, ws, true);
      return call(t, 'mutation ($identifier: String!, $ids: [ID!]!) { unsubscribeContactSequences(identifier: $identifier, sequenceIds: $ids) { success } }', { identifier: contact, ids: [sequence] });
    },
  },
  {
    field: 'Mutation.setContactSequences',
    action: 'write',
    scope: 'contacts',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const { contact, sequence } = await contactAndSequence(t, ws);
      return call(t, 'mutation ($identifier: String!, $ids: [ID!]!) { setContactSequences(identifier: $identifier, sequenceIds: $ids) { success } }', { identifier: contact, ids: [sequence] });
    },
  },
  {
    field: 'Mutation.bulkSubscribeContactSequences',
    action: 'write',
    scope: 'contacts',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const { contact, sequence } = await contactAndSequence(t, ws);
      return call(t, 'mutation ($contactIds: [ID!]!, $ids: [ID!]!) { bulkSubscribeContactSequences(contactIds: $contactIds, sequenceIds: $ids) { success affected } }', {
        contactIds: [contact],
        ids: [sequence],
      });
    },
  },

  // Inboxes and channels (scope inboxes).
  {
    field: 'Query.inboxes',
    action: 'read',
    scope: 'inboxes',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      await fixtures(t.db, ws).inbox(`Inbox ${unique()}`);
      return call(t, '{ inboxes { pageCount data { rawId contactsCount } } }');
    },
  },
  {
    field: 'Query.channels',
    action: 'read',
    scope: 'inboxes',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      await fixtures(t.db, ws).inbox(`Inbox ${unique()}`);
      return call(t, '{ channels { channel inboxCount contactCount } }');
    },
  },
  {
    field: 'Mutation.updateInbox',
    action: 'write',
    scope: 'inboxes',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const id = String(await fixtures(t.db, ws).inbox(`Inbox ${unique()}`));
      return call(t, 'mutation ($id: ID!, $input: UpdateInboxInput!) { updateInbox(id: $id, input: $input) { rawId name } }', { id, input: { name: `Renamed ${unique()}` } });
    },
  },

  // The presented token: no scope, any token reads itself.
  { field: 'Query.token', action: 'read', scope: null, workspaceTokensOnly: false, prepare: async (t) => call(t, '{ token { workspaceId kind scheme permission scopes createdAt } }') },

  // One module per area of the automations API.
  ...commentAutomationOperations,
  ...leadAdOperations,
  ...conversationOperations,
  ...dynamicImageOperations,
  ...outboxOperations,
  ...commentEventOperations,
  ...messageOperations,
  ...devEventOperations,
  ...webhookOperations,
  ...contactTransferOperations,
  ...folderOperations,
  ...flowOperations,
  ...sequenceStepOperations,
  ...threadControlOperations,
];

/** The response path of an operation's root field (`Mutation.createContact` -> ['createContact']). */
export const rootPath = (op: GraphQLOperation) => [op.field.split('.')[1]];
