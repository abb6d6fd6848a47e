import { graphql } from '../gql';
import { useKeptQuery } from '../kept-query';
import { Avatar } from '../contacts/Avatar';
import { useRefreshOn } from '../events/live-events';
import { Problem } from '../Problem';
import { ContactImage } from './ContactImage';
import { Conversations } from './Conversations';
import { FieldEditor } from './FieldEditor';
import { Notes } from './Notes';
import { Sequences } from './Sequences';
import { TagEditor } from './TagEditor';

/** The whole contact page in one request: every panel's fragment, the tags to suggest, the images. */
const ContactDetailQuery = graphql(`
  query ContactDetail($identifier: String!) {
    contact(identifier: $identifier) {
      id
      rawId
      fullName
      email
      phoneNumber
      avatar
      location
      createdAt
      ...TagEditor_contact
      ...FieldEditor_contact
      ...Conversations_contact
      ...Notes_contact
      ...Sequences_contact
    }
    tags {
      id
      name
    }
    ...ContactImage_query
  }
`);

export function ContactDetail({ contactId }: { contactId: string }) {
  const [{ data, fetching, error }, reexecute] = useKeptQuery({ query: ContactDetailQuery, variables: { identifier: contactId } });
  useRefreshOn(
    (event) => event.contactId === contactId,
    () => reexecute({ requestPolicy: 'network-only' }),
  );
  const contact = data?.contact;
  const name = contact ? contact.fullName || contact.email || contact.phoneNumber || `Contact ${contact.rawId}` : '';

  return (
    <section aria-busy={fetching} className="detail">
      <p>
        <a href="#/">← All contacts</a>
      </p>
      {fetching && !data ? <p className="loading">Loading the contact…</p> : null}
      {error && !contact ? <Problem error={error} /> : null}
      {contact ? (
        <>
          <header className="detail-header">
            <Avatar name={name} url={contact.avatar} id={contact.rawId} size="large" />
            <div>
              <h1>{name}</h1>
              <p className="muted">
                {[contact.email, contact.phoneNumber, contact.location].filter(Boolean).join(' · ')}
                {' · '}since {new Date(contact.createdAt).toLocaleDateString()}
              </p>
            </div>
          </header>
          <div className="panels">
            <TagEditor contact={contact} known={data?.tags ?? []} />
            {data ? <ContactImage query={data} contactName={name} /> : null}
            <FieldEditor contact={contact} />
            <Sequences contact={contact} />
            <Notes contact={contact} />
            <Conversations contact={contact} />
          </div>
        </>
      ) : null}
    </section>
  );
}
