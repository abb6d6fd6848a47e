import { z } from 'zod';
import type { Principal } from '../../domain/auth/principal.js';
import type { ContactNoteRecord } from '../../domain/contacts/contact-note.repository.js';
import { createContactNote, deleteContactNote, listContactNotes, updateContactNote } from '../../domain/contacts/contact-note.service.js';
import { noteTextSchema } from '../../domain/contacts/contact.schema.js';
import { contactIdentifier, identifierArg, type ArgBuilder } from '../args.js';
import { builder, SuccessType } from '../builder.js';
import { nodeOptions, rawIdField, recordIdArg } from '../node.js';
import { pageArgs, pageArgsSchema, pageComplexity, pageOf } from '../page.js';

const read = { action: 'read', scope: 'contacts' } as const;

export const ContactNoteType = builder.node(builder.objectRef<ContactNoteRecord>('ContactNote'), {
  ...nodeOptions('ContactNote', read, ({ loaders }) => loaders.note),
  fields: (t) => ({
    rawId: rawIdField(t),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    text: t.exposeString('text'),
    contactId: t.exposeID('contactId'),
    createdById: t.exposeID('createdById', { nullable: true }),
  }),
});

const write = { action: 'write', scope: 'contacts' } as const;

builder.queryField('contactNotes', (t) =>
  t.field({
    type: pageOf('ContactNotePage', ContactNoteType),
    description: "Like GET /v1/contacts/{identifier}/notes: the contact's notes, newest first (Contact.notes lists them all, oldest first).",
    access: read,
    args: { identifier: identifierArg(t.arg), ...pageArgs(t.arg) },
    validate: pageArgsSchema.extend({ identifier: z.string() }),
    complexity: pageComplexity,
    resolve: (_r, args, { db, who }) =>
      listContactNotes(db, who.workspaceId, contactIdentifier(args.identifier), { page: args.page, perPage: args.perPage }),
  }),
);

const textArg = (arg: ArgBuilder) => arg.string({ required: true, description: 'Trimmed, 1 to 10,000 characters', validate: noteTextSchema });
const noteIdArg = (arg: ArgBuilder) => arg.id({ required: true, description: 'Its global id, or its plain digit id (rawId)' }).validate(recordIdArg('ContactNote'));

/** The author of a note: the user of a user access token; workspace API tokens write as nobody. */
const authorOf = (who: Principal) => (who.kind === 'user' ? who.userId : null);

builder.mutationField('createContactNote', (t) =>
  t.field({
    type: ContactNoteType,
    description: 'Like POST /v1/contacts/{identifier}/notes: createdById is the user of a user access token, null for a workspace API token.',
    access: write,
    args: { identifier: identifierArg(t.arg), text: textArg(t.arg) },
    resolve: (_r, { identifier, text }, { db, who }) => createContactNote(db, who.workspaceId, contactIdentifier(identifier), { text }, authorOf(who)),
  }),
);

builder.mutationField('updateContactNote', (t) =>
  t.field({
    type: ContactNoteType,
    description: "Like PUT /v1/contacts/{identifier}/notes/{noteId}: a note of another contact is 404.",
    access: write,
    args: { identifier: identifierArg(t.arg), noteId: noteIdArg(t.arg), text: textArg(t.arg) },
    resolve: (_r, { identifier, noteId, text }, { db, who }) => updateContactNote(db, who.workspaceId, contactIdentifier(identifier), noteId, { text }),
  }),
);

builder.mutationField('deleteContactNote', (t) =>
  t.field({
    type: SuccessType,
    description: 'Like DELETE /v1/contacts/{identifier}/notes/{noteId}: a note of another contact is 404.',
    access: { action: 'delete', scope: 'contacts' },
    args: { identifier: identifierArg(t.arg), noteId: noteIdArg(t.arg) },
    resolve: async (_r, { identifier, noteId }, { db, who }) => deleteContactNote(db, who.workspaceId, contactIdentifier(identifier), noteId),
  }),
);
