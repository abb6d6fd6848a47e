import { fixtures, T0 } from './fixtures.js';
import type { TestApp } from './harness.js';

/**
 * Whole conversation bodies for the conversation tests, from the fixtures' known values: a user,
 * team and inbox as fixtures.ts inserts them, and a conversation as the API answers it.
 */
export interface KnownUser {
  id: number;
  name: string;
  email: string;
}
export interface KnownTeam {
  id: number;
  name: string;
}
export interface KnownInbox {
  id: number;
  name: string;
  channel: string;
}

export const userBody = (u: KnownUser) => ({
  id: String(u.id),
  createdAt: T0,
  updatedAt: T0,
  name: u.name,
  email: u.email,
  emailVerified: true,
  image: null,
  isAnonymous: false,
});

export const teamBody = (workspaceId: number, t: KnownTeam) => ({ id: String(t.id), createdAt: T0, updatedAt: T0, workspaceId: String(workspaceId), name: t.name });

export const inboxBody = (workspaceId: number, i: KnownInbox) => ({
  id: String(i.id),
  createdAt: T0,
  updatedAt: T0,
  name: i.name,
  channel: i.channel,
  sourceId: `src-${i.name}`,
  workspaceId: String(workspaceId),
  status: 'active',
});

export interface KnownConversation {
  id: number;
  contactId: number;
  user?: KnownUser | null;
  team?: KnownTeam | null;
  inbox?: KnownInbox | null;
  followed?: boolean;
  botEnabled?: boolean;
  botResumeAt?: string | null;
  archivedAt?: string | null;
  agentLastReadAt?: string | null;
  lastActivityAt?: string;
  createdAt?: string;
  updatedAt?: unknown;
}

/** The contract's conversation object with its nested assignee, team and inbox (REST's answer). */
export const conversationBody = (workspaceId: number, c: KnownConversation) => ({
  id: String(c.id),
  workspaceId: String(workspaceId),
  contactId: String(c.contactId),
  inboxId: c.inbox ? String(c.inbox.id) : null,
  createdAt: c.createdAt ?? T0,
  updatedAt: c.updatedAt ?? c.createdAt ?? T0,
  botResumeAt: c.botResumeAt ?? null,
  archivedAt: c.archivedAt ?? null,
  contactLastReadAt: null,
  agentLastReadAt: c.agentLastReadAt ?? null,
  lastActivityAt: c.lastActivityAt ?? c.createdAt ?? T0,
  adminRepliedAt: null,
  contactRepliedAt: null,
  botEnabled: c.botEnabled ?? true,
  followed: c.followed ?? true,
  additionalAttributes: '{}',
  aiContextLastMessageId: null,
  assignedUserId: c.user ? String(c.user.id) : null,
  assignedInboxTeamId: c.team ? String(c.team.id) : null,
  assignedUser: c.user ? userBody(c.user) : null,
  assignedInboxTeam: c.team ? teamBody(workspaceId, c.team) : null,
  inbox: c.inbox ? inboxBody(workspaceId, c.inbox) : null,
});

/** Fixture helpers that remember what they inserted, for conversationBody. */
export function knownRows(t: TestApp, workspaceId: number) {
  const f = fixtures(t.db, workspaceId);
  return {
    f,
    user: async (name: string, email: string): Promise<KnownUser> => ({ id: await f.user(name, email), name, email }),
    team: async (name: string): Promise<KnownTeam> => ({ id: await f.team(name), name }),
    inbox: async (name: string, channel = 'chat'): Promise<KnownInbox> => ({ id: await f.inbox(name, channel), name, channel }),
    conversation: async (c: Omit<KnownConversation, 'id' | 'updatedAt'>): Promise<KnownConversation> => ({
      ...c,
      id: await f.conversation({
        contactId: c.contactId,
        inboxId: c.inbox?.id ?? null,
        userId: c.user?.id ?? null,
        teamId: c.team?.id ?? null,
        followed: c.followed,
        botEnabled: c.botEnabled,
        botResumeAt: c.botResumeAt,
        archivedAt: c.archivedAt,
        agentLastReadAt: c.agentLastReadAt,
        lastActivityAt: c.lastActivityAt,
        createdAt: c.createdAt,
      }),
    }),
  };
}

/** An instant `minutes` after T0. */
export const minutesAfterT0 = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000).toISOString();
