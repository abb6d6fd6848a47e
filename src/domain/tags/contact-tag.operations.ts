import { identifierParams } from '../contacts/contact.schema.js';
import { operation, operationsOf } from '../shared/operation.js';
import { successSchema } from '../shared/schemas.js';
import {
  bulkAddTagsInput,
  bulkResultSchema,
  contactTagIdsInput,
  contactTagListSchema,
  contactTagNamesInput,
  MAX_BULK_CONTACTS,
  MAX_TAGS_PER_CALL,
  setContactTagsInput,
} from './tag.schema.js';
import { addContactTagsByName, bulkAddTags, changeContactTags, listContactTags } from './tag.service.js';

const tagged = (id: string, name: string) => ({
  id,
  name,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
  deletedAt: null,
  folderId: null,
  workspaceId: '1',
});

/** A contact's tags, and bulk tagging. Relation changes answer `{success: true}`. */
export const contactTagOperations = operationsOf('Contacts', {
  list: operation({
    id: 'contacts.listTags',
    summary: "List a contact's tags",
    description: "The contact's live tags, by name.",
    access: { action: 'read', scope: 'contacts' },
    params: identifierParams,
    output: contactTagListSchema,
    outputDescription: 'Live tags of the contact',
    examples: { params: { identifier: 'id:1' }, response: { data: [tagged('3', 'Customer'), tagged('1', 'VIP')] } },
    run: ({ db, who, params }) => listContactTags(db, who.workspaceId, params.identifier),
    present: (tags) => ({ data: tags }),
  }),
  add: operation({
    id: 'contacts.addTags',
    summary: 'Tag a contact',
    description: `Adds at most ${MAX_TAGS_PER_CALL} tags by id; tags the contact has stay.`,
    access: { action: 'write', scope: 'contacts' },
    params: identifierParams,
    body: contactTagIdsInput,
    output: successSchema,
    outputDescription: 'Tagged; unknown or deleted tag ids are 404 with data.ids, and nothing changes',
    examples: { params: { identifier: 'id:1' }, body: { tagIds: ['1', '3'] }, response: { success: true } },
    run: ({ db, who, params, body }) => changeContactTags(db, who.workspaceId, params.identifier, 'add', body.tagIds),
  }),
  remove: operation({
    id: 'contacts.removeTags',
    summary: 'Untag a contact',
    description: `Takes at most ${MAX_TAGS_PER_CALL} tags off the contact, by id.`,
    access: { action: 'delete', scope: 'contacts' },
    params: identifierParams,
    body: contactTagIdsInput,
    output: successSchema,
    outputDescription: 'Untagged; unknown or deleted tag ids are 404 with data.ids, and nothing changes',
    examples: { params: { identifier: 'id:1' }, body: { tagIds: ['3'] }, response: { success: true } },
    run: ({ db, who, params, body }) => changeContactTags(db, who.workspaceId, params.identifier, 'remove', body.tagIds),
  }),
  set: operation({
    id: 'contacts.setTags',
    summary: "Set a contact's tags",
    description: `The contact has exactly these tags afterwards (0 to ${MAX_TAGS_PER_CALL} tag ids).`,
    access: { action: 'write', scope: 'contacts' },
    params: identifierParams,
    body: setContactTagsInput,
    output: successSchema,
    outputDescription: 'The contact has exactly these tags now',
    examples: { params: { identifier: 'id:1' }, body: { tagIds: ['1'] }, response: { success: true } },
    run: ({ db, who, params, body }) => changeContactTags(db, who.workspaceId, params.identifier, 'set', body.tagIds),
  }),
  addByName: operation({
    id: 'contacts.addTagsByName',
    summary: 'Tag a contact by tag name',
    description: `Names (at most ${MAX_TAGS_PER_CALL}) match live tags case-insensitively; missing tags are created.`,
    access: { action: 'write', scope: 'contacts' },
    params: identifierParams,
    body: contactTagNamesInput,
    output: successSchema,
    outputDescription: 'Tagged; names match live tags case-insensitively',
    examples: { params: { identifier: 'ada.lovelace@mail.example' }, body: { names: ['VIP', 'Webinar 2026'] }, response: { success: true } },
    run: ({ db, who, params, body }) => addContactTagsByName(db, who.workspaceId, params.identifier, body.names),
  }),
  bulkAdd: operation({
    id: 'contacts.bulkAddTags',
    summary: 'Tag many contacts',
    description: `Gives up to ${MAX_BULK_CONTACTS} contacts the same tags, in one transaction.`,
    access: { action: 'write', scope: 'contacts' },
    body: bulkAddTagsInput,
    output: bulkResultSchema,
    outputDescription: 'Tagged; `affected` counts the contacts that gained at least one tag. Unknown contact or tag ids are 404 with data.ids, and nothing changes.',
    examples: { body: { contactIds: ['1', '2', '5'], tagIds: ['1'] }, response: { success: true, affected: 2 } },
    run: ({ db, who, body }) => bulkAddTags(db, who.workspaceId, body),
  }),
});
