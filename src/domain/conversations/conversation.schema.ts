import { cursorLimitText } from '../shared/pagination.js';
import { z } from 'zod';
import { keysBeyond, type Listing } from '../shared/listing.js';
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

/**
 * What a list of conversations usually shows: who and where (contact, inbox, assignee, team, the
 * references its relations load), whether it is followed, archived or answered by the bot, and its
 * last activity. The conversations of a page of contacts that asks for nothing else read only
 * these (conversation.repository.ts conversationListingsForContacts).
 */
export const conversationListingKeys = [
  'id', 'workspaceId', 'contactId', 'inboxId', 'assignedUserId', 'assignedInboxTeamId', 'followed', 'botEnabled', 'archivedAt', 'lastActivityAt',
] as const;
/** The fields of a conversation a listing does not hold. */
export const conversationKeysBeyondListing = keysBeyond(conversationScalarsSchema.shape, conversationListingKeys);
export type ConversationListing = Listing<ConversationScalars, (typeof conversationListingKeys)[number]>;

export const conversationSchema = conversationScalarsSchema
  .extend({ assignedUser: userSchema.nullable(), assignedInboxTeam: inboxTeamSchema.nullable(), inbox: inboxSchema.nullable() })
  .meta({ id: 'Conversation' });
export type Conversation = z.infer<typeof conversationSchema>;

// ---- GET /v1/conversations (conversations.list) and Query.conversations ----

export const MAX_CONVERSATION_LIMIT = 50;
export const DEFAULT_CONVERSATION_LIMIT = 20;

/** `none` in assignedUserId / assignedInboxTeamId: the conversations nobody (no team) is assigned. */
export const UNASSIGNED = 'none';

const assigneeFilter = (what: string) =>
  z
    .string()
    .regex(new RegExp(`^(\\d+|${UNASSIGNED})$`), `must be a digit string or "${UNASSIGNED}"`)
    .meta({ description: `Digit id of ${what} of the workspace, or "${UNASSIGNED}" for conversations without one` });

/**
 * The list's filters, shared by REST (query text) and GraphQL (typed arguments): ids and the keyword
 * are the same pieces; booleans arrive as text on REST only.
 */
export const conversationFilterPieces = {
  assignedUserId: assigneeFilter('a user'),
  assignedInboxTeamId: assigneeFilter('an inbox team'),
  inboxId: digitId.meta({ description: 'Digit id of an inbox of the workspace' }),
  keyword: z
    .string()
    .max(255, 'keyword must be at most 255 characters')
    .meta({ description: "Case-insensitive substring of the contact's first name, last name, full name, email or phone number" }),
};

export interface ConversationFilters {
  followed?: boolean;
  archived?: boolean;
  botEnabled?: boolean;
  assignedUserId?: string;
  assignedInboxTeamId?: string;
  inboxId?: string;
  keyword?: string;
}

const booleanText = (name: string, description: string) =>
  z
    .enum(['true', 'false'], { error: `${name} must be true or false` })
    .transform((v) => v === 'true')
    .pipe(z.boolean())
    .meta({ description });

const limitText = cursorLimitText(MAX_CONVERSATION_LIMIT);

export const booleanFilterDescriptions = {
  followed: 'true: only followed conversations; false: only unfollowed ones',
  archived: 'true: only archived ones (archivedAt set); false: only those not archived',
  botEnabled: 'true: only those whose bot is on; false: only those whose bot is off',
} as const;

export const conversationsQuery = z.strictObject({
  cursor: z
    .string()
    .max(500, 'cursor is not a cursor of this list')
    .optional()
    .meta({ description: 'nextCursor or prevCursor of a previous answer, with the same filters' }),
  limit: limitText.default(DEFAULT_CONVERSATION_LIMIT).meta({ description: `Items per page, 1 to ${MAX_CONVERSATION_LIMIT} (default ${DEFAULT_CONVERSATION_LIMIT})` }),
  followed: booleanText('followed', booleanFilterDescriptions.followed).optional(),
  archived: booleanText('archived', booleanFilterDescriptions.archived).optional(),
  botEnabled: booleanText('botEnabled', booleanFilterDescriptions.botEnabled).optional(),
  assignedUserId: conversationFilterPieces.assignedUserId.optional(),
  assignedInboxTeamId: conversationFilterPieces.assignedInboxTeamId.optional(),
  inboxId: conversationFilterPieces.inboxId.optional(),
  keyword: conversationFilterPieces.keyword.optional(),
});
export type ConversationsQuery = z.output<typeof conversationsQuery>;

export const conversationPageSchema = z
  .object({
    data: z.array(conversationSchema),
    nextCursor: z.string().nullable().meta({ description: 'Cursor of the next (older) page; null on the last page' }),
    prevCursor: z.string().nullable().meta({ description: 'Cursor of the previous (newer) page; null on the first page' }),
  })
  .meta({ id: 'ConversationPage' });

// ---- Actions ----

const assignField = (what: string) =>
  digitId.nullable().optional().meta({ description: `Digit id of ${what} of the workspace; null clears it; left out keeps it` });

export const assignConversationFields = { userId: assignField('a user'), inboxTeamId: assignField('an inbox team') };

export const assignConversationInput = z
  .strictObject(assignConversationFields)
  .refine((b) => b.userId !== undefined || b.inboxTeamId !== undefined, { message: 'Provide at least one of userId or inboxTeamId' })
  .meta({
    id: 'AssignConversationInput',
    description: 'At least one of userId and inboxTeamId; null clears it, a field left out keeps its value.',
    minProperties: 1,
  });
export type AssignConversationInput = z.output<typeof assignConversationInput>;

/** An instant after now (checked when the request is read), normalised to ISO 8601 UTC. */
export const futureInstant = isoDateTime
  // A value that is no date-time already has its issue: the future is only asked of real instants.
  .refine((v) => Number.isNaN(Date.parse(v)) || Date.parse(v) > Date.now(), { message: 'resumeAt must be in the future' })
  .transform((v) => new Date(v).toISOString());

export const disableBotFields = {
  resumeAt: futureInstant.nullable().optional().meta({ description: 'When the bot switches back on by itself (in the future); left out or null: not by itself' }),
};

/** The body of POST .../disable-bot: optional (no body, `{}` and `{resumeAt: null}` all mean "no resume time"). */
export const disableBotInput = z.strictObject(disableBotFields).optional().meta({ id: 'DisableConversationBotInput' });
export type DisableBotInput = z.output<typeof disableBotInput>;
