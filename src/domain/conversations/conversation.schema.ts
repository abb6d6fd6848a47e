import { z } from 'zod';
import { digitId, isoDateTime } from '../shared/schemas.js';
import { inboxSchema } from '../contacts/contact.schema.js';

export const userSchema = z
  .object({
    id: digitId,
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    name: z.string(),
    email: z.string(),
    emailVerified: z.boolean(),
    image: z.string().nullable(),
    isAnonymous: z.boolean(),
  })
  .meta({ id: 'User' });

export const inboxTeamSchema = z
  .object({ id: digitId, createdAt: isoDateTime, updatedAt: isoDateTime, workspaceId: digitId, name: z.string() })
  .meta({ id: 'InboxTeam' });

/** The contract's conversation object (without the nested assignee, team and inbox). */
export const conversationScalarsSchema = z.object({
  id: digitId,
  workspaceId: digitId,
  contactId: digitId,
  inboxId: digitId.nullable(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
  botResumeAt: isoDateTime.nullable(),
  archivedAt: isoDateTime.nullable(),
  contactLastReadAt: isoDateTime.nullable(),
  agentLastReadAt: isoDateTime.nullable(),
  lastActivityAt: isoDateTime.nullable(),
  adminRepliedAt: isoDateTime.nullable(),
  contactRepliedAt: isoDateTime.nullable(),
  botEnabled: z.boolean(),
  followed: z.boolean(),
  additionalAttributes: z.string(),
  aiContextLastMessageId: z.string().nullable(),
  assignedUserId: digitId.nullable(),
  assignedInboxTeamId: digitId.nullable(),
});
export type ConversationScalars = z.infer<typeof conversationScalarsSchema>;

export const conversationSchema = conversationScalarsSchema
  .extend({ assignedUser: userSchema.nullable(), assignedInboxTeam: inboxTeamSchema.nullable(), inbox: inboxSchema.nullable() })
  .meta({ id: 'Conversation' });
