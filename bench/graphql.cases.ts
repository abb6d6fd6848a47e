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
