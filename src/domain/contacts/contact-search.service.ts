import type { Executor } from '../../db/database.js';
import { valuesForContacts } from '../custom-fields/custom-field.repository.js';
import { conversationsForContacts } from '../conversations/conversation.repository.js';
import type { ConversationScalars } from '../conversations/conversation.schema.js';
import { contactInboxesForContacts, inboxesByIds } from '../inboxes/inbox.repository.js';
import { groupBy } from '../shared/group.js';
import { remembered } from '../shared/remembered.js';
import { fetchPage, type Page, type PageRequest } from '../shared/pagination.js';
import { tagsForContacts } from '../tags/tag.repository.js';
import type { ContactCondition, ContactInclude, ContactListFilters, ContactWindowQuery } from './contact-filter.schema.js';
import { checkCondition, checkListFilters, type Path } from './contact-filter.service.js';
import {
  compileFilter,
  countMatchingContacts,
  keysetOfMatchingContacts,
  pageOfMatchingContacts,
  type CheckedCondition,
  type ContactFilterSql,
} from './contact-search.repository.js';
import { countContacts, listContactListings, listContacts } from './contact.repository.js';
import type { Contact, ContactListing, ContactScalars } from './contact.schema.js';

/**
 * Listing, counting and searching contacts: the checked filter (contact-filter.service.ts) compiled
 * to SQL, one page of contacts, and the relations `include` asks for.
 */

/** A listed contact: its own fields and the relations `include` asked for, as the contact object holds them. */
export type ListedContact = ContactScalars &
  Partial<Pick<Contact, 'tags' | 'contactCustomFields' | 'contactInboxes'>> & { conversations?: ConversationScalars[] };

/**
 * Embeds the asked relations into a page of contacts, which it answers with them: one statement
 * each (two for inboxes). The contacts must be the caller's own fresh objects.
 */
export async function withIncludes(db: Executor, workspaceId: number, contacts: ContactScalars[], include: readonly ContactInclude[] = []): Promise<ListedContact[]> {
  if (contacts.length === 0 || include.length === 0) return contacts;
  const ids = contacts.map((c) => Number(c.id));
  const want = new Set(include);
  const byContact = <T extends { contactId: string }>(rows: T[]) => groupBy(rows, (r) => r.contactId);
  const [tags, values, memberships, conversations] = await Promise.all([
    want.has('tags') ? tagsForContacts(db, workspaceId, ids) : null,
    want.has('customFields') ? valuesForContacts(db, workspaceId, ids) : null,
    want.has('inboxes') ? contactInboxesForContacts(db, workspaceId, ids) : null,
    want.has('conversations') ? conversationsForContacts(db, workspaceId, ids) : null,
  ]);
  const inboxes = memberships
    ? new Map((await inboxesByIds(db, workspaceId, [...new Set(memberships.map((m) => Number(m.inboxId)))])).map((i) => [i.id, i]))
    : null;
  const tagsOf = tags && byContact(tags);
  const valuesOf = values && byContact(values);
  const membershipsOf = memberships && byContact(memberships);
  const conversationsOf = conversations && byContact(conversations);
  // The page's contacts were read for this call alone: each takes its relations in place (a copy
  // of every contact's two dozen fields was a measurable part of a page's CPU).
  return contacts.map((c) => {
    const listed: ListedContact = c;
    if (tagsOf) listed.tags = (tagsOf.get(c.id) ?? []).map(({ contactId: _omit, ...tag }) => tag);
    if (valuesOf) listed.contactCustomFields = valuesOf.get(c.id) ?? [];
    if (membershipsOf) {
      listed.contactInboxes = (membershipsOf.get(c.id) ?? []).flatMap((m) => {
        const inbox = inboxes!.get(m.inboxId);
        return inbox ? [{ ...m, inbox }] : [];
      });
    }
    if (conversationsOf) listed.conversations = conversationsOf.get(c.id) ?? [];
    return listed;
  });
}

/** No condition at all (a list without filters): every contact of the workspace matches. */
const matchesAll = (where: CheckedCondition) => where.kind === 'and' && where.children.every(matchesAll);

/** The contacts matching: the count the database keeps when that is every contact, else counted. */
const countMatching = (db: Executor, workspaceId: number, where: CheckedCondition, sqlWhere: ContactFilterSql) =>
  matchesAll(where) ? countContacts(db, workspaceId) : countMatchingContacts(db, workspaceId, sqlWhere);

/**
 * A list's or search's pageCount is exact up to this many matches. Past it, the count is remembered
 * for 15 s (per process, per workspace and filter), so that paging through a large result, or many
 * callers asking the same search, count it once: counting thousands of matches is the dearest part
 * of a page (docs/rest.md, "Choices where the contract is silent"). Every match stays reachable.
 */
export const EXACT_PAGE_COUNT_UP_TO = 1000;
const largeCounts = remembered<number>({ forMs: 15_000, max: 1000 });

async function matchesOfPages(db: Executor, workspaceId: number, where: CheckedCondition, sqlWhere: ContactFilterSql): Promise<number> {
  // The kept count of every contact is exact and cheap: never remembered.
  const key = matchesAll(where) ? null : `${workspaceId}:${JSON.stringify(where)}`;
  const known = key === null ? undefined : largeCounts.get(db, key);
  if (known !== undefined) return known;
  const counted = await countMatching(db, workspaceId, where, sqlWhere);
  if (key !== null && counted > EXACT_PAGE_COUNT_UP_TO) largeCounts.set(db, key, counted);
  return counted;
}

/**
 * SQLite starts a filter with a relation from that relation's contacts (compileFilter), which reads
 * and sorts every one of them for any page. A page near the front of many matches is found sooner
 * by walking the list order and probing each contact: about (offset + limit) x contacts / matches
 * contacts walked, against at least `matches` read from the relation. PostgreSQL weighs the two
 * plans itself, from its statistics.
 */
async function pageFilter(db: Executor, workspaceId: number, where: CheckedCondition, sqlWhere: ContactFilterSql, matches: number, window: { limit: number; offset: number }) {
  if (!sqlWhere.drivenByRelation) return sqlWhere;
  const walked = ((window.offset + window.limit) * (await countContacts(db, workspaceId))) / matches;
  return walked <= matches ? compileFilter(db, workspaceId, where, 'walk') : sqlWhere;
}

async function pageOf(db: Executor, workspaceId: number, where: CheckedCondition, page: PageRequest, include?: readonly ContactInclude[]): Promise<Page<ListedContact>> {
  const sqlWhere = compileFilter(db, workspaceId, where);
  const matches = await matchesOfPages(db, workspaceId, where, sqlWhere);
  const found = await fetchPage(
    page,
    async () => matches,
    async (window) => pageOfMatchingContacts(db, workspaceId, await pageFilter(db, workspaceId, where, sqlWhere, matches, window), window),
  );
  return { data: await withIncludes(db, workspaceId, found.data, include), pageCount: found.pageCount };
}

/** GET /v1/contacts. */
export async function listContactsPage(db: Executor, workspaceId: number, q: ContactListFilters & PageRequest & { include?: ContactInclude[] }) {
  return pageOf(db, workspaceId, await checkListFilters(db, workspaceId, q), q, q.include);
}

/** GET /v1/contacts/count. */
export async function countContactsMatching(db: Executor, workspaceId: number, q: ContactListFilters) {
  const where = await checkListFilters(db, workspaceId, q);
  return { count: await countMatching(db, workspaceId, where, compileFilter(db, workspaceId, where)) };
}

/** POST /v1/contacts/search (and the GraphQL filter): the tree's issues at `at` (["body", "filter"]). */
export async function searchContacts(
  db: Executor,
  workspaceId: number,
  body: { filter: ContactCondition; page: number; perPage: number; include?: ContactInclude[] },
  at: Path = ['body', 'filter'],
) {
  const { where } = await checkCondition(db, workspaceId, body.filter, at);
  return pageOf(db, workspaceId, where, body, body.include);
}

/** The GraphQL connection: the list filters and the tree together, keyset-paginated. */
export async function listContactsKeyset(
  db: Executor,
  workspaceId: number,
  filters: ContactListFilters & { filter?: ContactCondition | null },
  window: { limit: number; after?: { createdAt: string; id: number } },
) {
  const parts = [await checkListFilters(db, workspaceId, filters)];
  if (filters.filter) parts.push((await checkCondition(db, workspaceId, filters.filter, ['filter'])).where);
  return keysetOfMatchingContacts(db, workspaceId, compileFilter(db, workspaceId, { kind: 'and', children: parts }), window);
}

/**
 * One window of the GraphQL connection. The plain list reads listings when the caller shows nothing
 * more (a frontend's usual page); a keyword alone keeps the list's tuned keyword plan
 * (contact.repository.ts listContacts); any other filter goes through the checked condition tree.
 */
export async function listContactsWindow(db: Executor, workspaceId: number, q: ContactWindowQuery): Promise<(ContactScalars | ContactListing)[]> {
  const { filter, listings, limit, after, ...filters } = q;
  const window = { limit, after };
  const onlyKeyword = !filter && !filters.tagId && !filters.inboxId && !filters.createdAfter && !filters.createdBefore;
  if (onlyKeyword && !filters.keyword && listings) return listContactListings(db, workspaceId, window);
  if (onlyKeyword) return listContacts(db, workspaceId, { ...window, keyword: filters.keyword });
  return listContactsKeyset(db, workspaceId, { ...filters, filter }, window);
}
