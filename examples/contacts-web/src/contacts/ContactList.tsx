import { useState, type FormEvent } from 'react';
import { graphql } from '../gql';
import { useKeptQuery } from '../kept-query';
import { Problem } from '../Problem';
import { useRefreshOn } from '../events/live-events';
import { ContactRow } from './ContactRow';

/** The whole page in one request: the rows with everything they show, and the tags to filter by. */
const ContactsPageQuery = graphql(`
  query ContactsPage($first: Int!, $after: String, $keyword: String, $tagIds: [ID!]) {
    contacts(first: $first, after: $after, keyword: $keyword, tagIds: $tagIds) {
      edges {
        cursor
        node {
          id
          rawId
          ...ContactRow_contact
        }
      }
      pageInfo {
        endCursor
        hasNextPage
      }
    }
    tags {
      id
      name
    }
  }
`);

export const PAGE_SIZE = 20;

/** Where the list is: kept by the app, so coming back from a contact finds the same page. */
export interface ListState {
  keyword: string;
  tagId: string;
  after: string | null;
  /** The `after` of each earlier page, to go back without asking again (urql keeps them). */
  earlier: (string | null)[];
}

export const firstPage: ListState = { keyword: '', tagId: '', after: null, earlier: [] };

export function ContactList({ state, onChange }: { state: ListState; onChange: (next: ListState) => void }) {
  const [{ data, fetching, error }, reexecute] = useKeptQuery({
    query: ContactsPageQuery,
    variables: { first: PAGE_SIZE, after: state.after, keyword: state.keyword || null, tagIds: state.tagId ? [state.tagId] : null },
  });
  const [keyword, setKeyword] = useState(state.keyword);

  const rows = data?.contacts.edges ?? [];
  useRefreshOn(
    (event) => (event.type === 'newContact' && state.after === null) || rows.some((edge) => edge.node.rawId === event.contactId),
    () => reexecute({ requestPolicy: 'network-only' }),
  );

  const search = (e: FormEvent) => {
    e.preventDefault();
    onChange({ ...firstPage, tagId: state.tagId, keyword: keyword.trim() });
  };
  const pageNumber = state.earlier.length + 1;

  return (
    <section aria-labelledby="contacts-title" aria-busy={fetching}>
      <h1 id="contacts-title">Contacts</h1>
      <form className="filters" role="search" onSubmit={search}>
        <label>
          Search
          <input type="search" value={keyword} onChange={(e) => setKeyword(e.target.value)} placeholder="Name, email or phone" maxLength={200} />
        </label>
        <label>
          Tag
          <select value={state.tagId} onChange={(e) => onChange({ ...firstPage, keyword: state.keyword, tagId: e.target.value })}>
            <option value="">Any tag</option>
            {(data?.tags ?? []).map((tag) => (
              <option key={tag.id} value={tag.id}>
                {tag.name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Search</button>
      </form>

      {error ? <Problem error={error} /> : null}
      {fetching && !data ? <p className="loading">Loading contacts…</p> : null}
      {data && rows.length === 0 ? <p className="empty">{state.keyword || state.tagId ? 'No contact matches these filters.' : 'No contacts yet.'}</p> : null}

      <ol className="contacts" aria-label={`Contacts, page ${pageNumber}`}>
        {rows.map((edge) => (
          <ContactRow key={edge.node.id} contact={edge.node} />
        ))}
      </ol>

      <nav className="pager" aria-label="Pages">
        <button type="button" disabled={state.earlier.length === 0} onClick={() => onChange({ ...state, after: state.earlier.at(-1) ?? null, earlier: state.earlier.slice(0, -1) })}>
          Previous
        </button>
        <span>Page {pageNumber}</span>
        <button
          type="button"
          disabled={!data?.contacts.pageInfo.hasNextPage}
          onClick={() => onChange({ ...state, after: data!.contacts.pageInfo.endCursor ?? null, earlier: [...state.earlier, state.after] })}
        >
          Next
        </button>
      </nav>
    </section>
  );
}
