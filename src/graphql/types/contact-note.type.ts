import { z } from 'zod';
import type { ContactNoteRecord } from '../../domain/contacts/contact-note.repository.js';
import { contactNoteOperations as notes } from '../../domain/contacts/contact-note.operations.js';
import { contactIdentifier, identifierArg, type ArgBuilder } from '../args.js';
import { builder, SuccessType } from '../builder.js';
import { nodeOptions, rawIdField, recordIdArg } from '../node.js';
import { runOperation } from '../operations.js';
import { pageArgs, pageArgsSchema, pageComplexity, pageOf } from '../page.js';

export const ContactNoteType = builder.node(builder.objectRef<ContactNoteRecord>('ContactNote'), {
  ...nodeOptions('ContactNote', notes.list.access, ({ loaders }) => loaders.note),
  fields: (t) => ({
    rawId: rawIdField(t),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    text: t.exposeString('text'),
    contactId: t.exposeID('contactId'),
    createdById: t.exposeID('createdById', { nullable: true }),
  }),
});

builder.queryField('contactNotes', (t) =>
  t.field({
    type: pageOf('ContactNotePage', ContactNoteType),
    description: "Like GET /v1/contacts/{identifier}/notes: the contact's notes, newest first (Contact.notes lists them all, oldest first).",
    access: notes.list.access,
    args: { identifier: identifierArg(t.arg), ...pageArgs(t.arg) },
    // GraphQL's page arguments are integers already (REST's query sends text).
    validate: pageArgsSchema.extend({ identifier: z.string() }),
    complexity: pageComplexity,
    resolve: (_r, args, ctx) =>
      runOperation(notes.list, ctx, { params: { identifier: contactIdentifier(args.identifier) }, query: { page: args.page, perPage: args.perPage } }),
  }),
);

const textArg = (arg: ArgBuilder) => arg.string({ required: true, description: 'Trimmed, 1 to 10,000 characters', validate: notes.create.body.shape.text });
const noteIdArg = (arg: ArgBuilder) => arg.id({ required: true, description: 'Its global id, or its plain digit id (rawId)' }).validate(recordIdArg('ContactNote'));

builder.mutationField('createContactNote', (t) =>
  t.field({
    type: ContactNoteType,
    description: 'Like POST /v1/contacts/{identifier}/notes: createdById is the user of a user access token, null for a workspace API token.',
    access: notes.create.access,
    args: { identifier: identifierArg(t.arg), text: textArg(t.arg) },
    resolve: (_r, { identifier, text }, ctx) => runOperation(notes.create, ctx, { params: { identifier: contactIdentifier(identifier) }, body: { text } }),
  }),
);

builder.mutationField('updateContactNote', (t) =>
  t.field({
    type: ContactNoteType,
    description: "Like PUT /v1/contacts/{identifier}/notes/{noteId}: a note of another contact is 404.",
    access: notes.update.access,
    args: { identifier: identifierArg(t.arg), noteId: noteIdArg(t.arg), text: textArg(t.arg) },
    resolve: (_r, { identifier, noteId, text }, ctx) =>
      runOperation(notes.update, ctx, { params: { identifier: contactIdentifier(identifier), noteId }, body: { text } }),
  }),
);

builder.mutationField('deleteContactNote', (t) =>
  t.field({
    type: SuccessType,
    description: 'Like DELETE /v1/contacts/{identifier}/notes/{noteId}: a note of another contact is 404.',
    access: notes.delete.access,
    args: { identifier: identifierArg(t.arg), noteId: noteIdArg(t.arg) },
    resolve: (_r, { identifier, noteId }, ctx) => runOperation(notes.delete, ctx, { params: { identifier: contactIdentifier(identifier), noteId } }),
  }),
);
