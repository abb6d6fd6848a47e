/** The nested query a frontend sends for a contact list page: every relation of every contact. */
export const nestedContactsQuery = `query BenchContacts($first: Int!) {
  contacts(first: $first) {
    edges { node {
      id rawId fullName email phoneNumber createdAt
      customFields { rawId name value type }
      sequences { sequenceId sequenceName }
      tags { id name }
      notes { id text createdAt }
      inboxes { id channel inbox { id name channel status } }
      conversations { id followed lastActivityAt inbox { id name } assignedUser { id name email } assignedInboxTeam { id name } }
    } }
    pageInfo { hasNextPage endCursor }
  }
}`;

export const nestedBody = (first: number) => JSON.stringify({ query: nestedContactsQuery, variables: { first } });

/** Contact search: a keyword a handful of contacts hold (trigram matches) or thousands hold (the newest-first walk). */
export const searchBody = (keyword: string) =>
  JSON.stringify({ query: 'query BenchSearch($keyword: String!) { contacts(first: 20, keyword: $keyword) { edges { node { id fullName email } } } }', variables: { keyword } });

/** The REST fan-out of a nested page: the 100 requests for its contacts' custom fields and sequences (REST has no other relation). */
export const fanOutPaths = (contactIds: string[]) => contactIds.flatMap((id) => [`/v1/contacts/${id}/custom-fields`, `/v1/contacts/${id}/sequences`]);

/**
 * The same page asked of PostGraphile (bench/peer-postgraphile.ts): the same 50 contacts in the
 * API's order (created_at desc, id desc: src/domain/contacts), every relation through the tables'
 * foreign keys, the same fields. The workspace is a condition of the query: PostGraphile has no
 * token to read it from.
 */
export const peerContactsQuery = `query PeerContacts($workspaceId: Int!, $first: Int!) {
  allContacts(first: $first, condition: { workspaceId: $workspaceId }, orderBy: [CREATED_AT_DESC, ID_DESC]) {
    nodes {
      id firstName lastName email phoneNumber createdAt
      contactCustomFieldsByContactId(orderBy: CUSTOM_FIELD_ID_ASC) { nodes { value customFieldByCustomFieldId { id name type } } }
      sequenceSubscriptionsByContactId(orderBy: ID_ASC) { nodes { sequenceBySequenceId { id name } } }
      contactTagsByContactId { nodes { tagByTagId { id name } } }
      contactNotesByContactId(orderBy: [CREATED_AT_ASC, ID_ASC]) { nodes { id text createdAt } }
      contactInboxesByContactId(orderBy: ID_ASC) { nodes { id channel inboxByInboxId { id name channel status } } }
      conversationsByContactId(orderBy: ID_DESC) { nodes { id followed lastActivityAt inboxByInboxId { id name } userByAssignedUserId { id name email } inboxTeamByAssignedInboxTeamId { id name } } }
    }
    pageInfo { hasNextPage }
  }
}`;

export const peerBody = (first: number, workspaceId: number) => JSON.stringify({ query: peerContactsQuery, variables: { workspaceId, first } });

/**
 * One page's contacts in a shape both servers' answers reduce to, for the parity check: the
 * contacts' ids in order, and for each its scalar fields and the row ids of every relation.
 * Relations are compared as sorted sets: PostGraphile has no order through a join table (a
 * contact's tags by name), and the answer's order within a contact is not what is measured. The
 * API lists every custom field of the workspace, '' where the contact has no value; PostGraphile
 * lists the values the contact has: only non-empty values are compared.
 */
export interface PageShape {
  hasNextPage: boolean;
  contacts: {
    id: string;
    fullName: string;
    email: string | null;
    phoneNumber: string | null;
    createdAt: number;
    customFields: string[];
    sequences: string[];
    tags: string[];
    notes: string[];
    inboxes: string[];
    conversations: string[];
  }[];
}

/** The row id inside one of the API's global ids (base64 of `Type:id`). */
const rowId = (globalId: string | null | undefined) => (globalId ? Buffer.from(globalId, 'base64').toString().split(':').pop()! : '-');
const sorted = (values: string[]) => [...values].sort();
const time = (value: string | null) => (value === null ? NaN : Date.parse(value));
const fullName = (first: string | null, last: string | null) => [first, last].filter(Boolean).join(' ');

/** The API's answer to nestedContactsQuery, reduced. */
export function apiPageShape(body: any): PageShape {
  const page = body.data.contacts;
  return {
    hasNextPage: page.pageInfo.hasNextPage,
    contacts: page.edges.map(({ node: c }: any) => ({
      id: String(c.rawId),
      fullName: c.fullName,
      email: c.email,
      phoneNumber: c.phoneNumber,
      createdAt: time(c.createdAt),
      customFields: sorted(c.customFields.filter((f: any) => f.value !== '').map((f: any) => `${f.rawId}=${f.value}`)),
      sequences: sorted(c.sequences.map((s: any) => String(s.sequenceId))),
      tags: sorted(c.tags.map((t: any) => rowId(t.id))),
      notes: sorted(c.notes.map((n: any) => rowId(n.id))),
      inboxes: sorted(c.inboxes.map((m: any) => `${rowId(m.id)}:${rowId(m.inbox?.id)}`)),
      conversations: sorted(c.conversations.map((v: any) => `${rowId(v.id)}:${rowId(v.inbox?.id)}:${rowId(v.assignedUser?.id)}:${rowId(v.assignedInboxTeam?.id)}`)),
    })),
  };
}

/** PostGraphile's answer to peerContactsQuery, reduced. */
export function peerPageShape(body: any): PageShape {
  const page = body.data.allContacts;
  const id = (row: { id: number } | null) => (row ? String(row.id) : '-');
  return {
    hasNextPage: page.pageInfo.hasNextPage,
    contacts: page.nodes.map((c: any) => ({
      id: String(c.id),
      fullName: fullName(c.firstName, c.lastName),
      email: c.email,
      phoneNumber: c.phoneNumber,
      createdAt: time(c.createdAt),
      customFields: sorted(c.contactCustomFieldsByContactId.nodes.filter((v: any) => v.value !== '' && v.value !== null).map((v: any) => `${v.customFieldByCustomFieldId.id}=${v.value}`)),
      sequences: sorted(c.sequenceSubscriptionsByContactId.nodes.map((s: any) => id(s.sequenceBySequenceId))),
      tags: sorted(c.contactTagsByContactId.nodes.map((t: any) => id(t.tagByTagId))),
      notes: sorted(c.contactNotesByContactId.nodes.map((n: any) => id(n))),
      inboxes: sorted(c.contactInboxesByContactId.nodes.map((m: any) => `${m.id}:${id(m.inboxByInboxId)}`)),
      conversations: sorted(c.conversationsByContactId.nodes.map((v: any) => `${v.id}:${id(v.inboxByInboxId)}:${id(v.userByAssignedUserId)}:${id(v.inboxTeamByAssignedInboxTeamId)}`)),
    })),
  };
}
