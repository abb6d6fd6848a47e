import type { ContactNoteRow } from '../../domain/contacts/contact-note.repository.js';
import { builder } from '../builder.js';
import { nodeOptions, rawIdField } from '../node.js';

const read = { action: 'read', scope: 'contacts' } as const;

export const ContactNoteType = builder.node(builder.objectRef<ContactNoteRow>('ContactNote'), {
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

