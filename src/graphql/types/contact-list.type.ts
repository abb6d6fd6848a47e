import { z } from 'zod';
import { listContacts } from '../../domain/contacts/contact.repository.js';
import { builder } from '../builder.js';
import { connectionArgs, connectionComplexity, DEFAULT_FIRST, keysetConnection, MAX_FIRST } from '../connection.js';
import { byCreatedAt } from '../cursor.js';
import { ContactRef } from './refs.js';

const read = { action: 'read', scope: 'contacts' } as const;

const contactCursor = byCreatedAt('contact');

builder.queryField('contacts', (t) =>
  t.connection(
    {
      type: ContactRef,
      description: `Contacts, newest first (creation time, then id). \`first\` defaults to ${DEFAULT_FIRST}, at most ${MAX_FIRST}. \`keyword\`: case-insensitive substring of name, email or phone.`,
      access: read,
      args: { keyword: t.arg.string() },
      validate: connectionArgs.extend({ keyword: z.string().max(255).nullish() }),
      complexity: connectionComplexity,
      resolve: (_r, args, { db, who }) =>
        keysetConnection(contactCursor, args, (window) => listContacts(db, who.workspaceId, { ...window, keyword: args.keyword ?? undefined })),
    },
    { name: 'ContactConnection' },
    { name: 'ContactEdge' },
  ),
);

