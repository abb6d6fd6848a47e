import { useEffect, useMemo, useRef, useState } from 'react';
import { Provider } from 'urql';
import { apiClient } from './client';
import { ContactDetail } from './contact/ContactDetail';
import { ContactList, firstPage, type ListState } from './contacts/ContactList';
import { EventStrip } from './events/EventStrip';
import { LiveEvents, LiveEventsContext } from './events/live-events';
import { TokenForm } from './TokenForm';
import { forgetToken, readToken, saveToken } from './token';

/** `#/contacts/42` is a contact's page; anything else is the list. */
const contactInHash = () => /^#\/contacts\/(\d+)$/.exec(window.location.hash)?.[1] ?? null;

function useContactInHash(): string | null {
  const [contactId, setContactId] = useState(contactInHash);
  useEffect(() => {
    const changed = () => setContactId(contactInHash());
    window.addEventListener('hashchange', changed);
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return contactId;
}

export function App() {
  const [token, setToken] = useState(readToken);
  const client = useMemo(() => (token ? apiClient(token) : null), [token]);
  const live = useMemo(() => new LiveEvents(), [client]);
  const contactId = useContactInHash();
  const [list, setList] = useState<ListState>(firstPage);
  const main = useRef<HTMLElement>(null);

  // A new view (not the first): keyboard and screen-reader users start at its top, as after a
  // page load. On the first, the token field keeps its place first in the tab order.
  const shown = useRef(false);
  useEffect(() => {
    if (shown.current) main.current?.focus();
    shown.current = true;
  }, [contactId, list.after]);

  const changeToken = (next: string) => {
    if (next) saveToken(next);
    else forgetToken();
    setList(firstPage);
    setToken(next);
  };

  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <p className="brand">Contacts</p>
        <TokenForm token={token} onChange={changeToken} />
      </header>
      {client ? (
        <Provider value={client}>
          <LiveEventsContext.Provider value={live}>
            <EventStrip />
            <main id="main" ref={main} tabIndex={-1}>
              {contactId ? <ContactDetail key={contactId} contactId={contactId} /> : <ContactList state={list} onChange={setList} />}
            </main>
          </LiveEventsContext.Provider>
        </Provider>
      ) : (
        <main id="main" ref={main} tabIndex={-1} className="intro">
          <h1>Contacts inbox</h1>
          <p>
            Enter an API token above to see the workspace's contacts, their conversations, notes, sequences and tags, and the events as they happen. Each page is
            one GraphQL request; the live strip is one event stream.
          </p>
        </main>
      )}
    </>
  );
}
