import { graphql, useFragment, type FragmentType } from '../gql';
import { Avatar } from './Avatar';

export const ContactRowFragment = graphql(`
  fragment ContactRow_contact on Contact {
    rawId
    fullName
    email
    phoneNumber
    avatar
    tags {
      id
      name
    }
    customFields {
      rawId
      name
      value
    }
    notes {
      id
    }
    inboxes {
      id
      channel
      inbox {
        id
        name
      }
    }
    messages(first: 1) {
      edges {
        node {
          id
          text
          direction
          createdAt
        }
      }
    }
  }
`);

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** One contact in the list: everything it shows came with the page's single request. */
export function ContactRow(props: { contact: FragmentType<typeof ContactRowFragment> }) {
  const contact = useFragment(ContactRowFragment, props.contact);
  const last = contact.messages.edges[0]?.node;
  const fields = contact.customFields.filter((f) => f.value !== '');
  const name = contact.fullName || contact.email || contact.phoneNumber || `Contact ${contact.rawId}`;
  return (
    <li className="contact-row">
      <Avatar name={name} url={contact.avatar} id={contact.rawId} />
      <div className="contact-main">
        <a className="contact-name" href={`#/contacts/${contact.rawId}`}>
          {name}
        </a>
        <p className="contact-meta">
          {contact.inboxes.length === 0 ? 'No inbox' : contact.inboxes.map((i) => i.inbox?.name ?? i.channel).join(' · ')}
          {' · '}
          {contact.notes.length === 1 ? '1 note' : `${contact.notes.length} notes`}
        </p>
        {contact.tags.length > 0 ? (
          <ul className="chips" aria-label="Tags">
            {contact.tags.map((tag) => (
              <li key={tag.id} className="chip">
                {tag.name}
              </li>
            ))}
          </ul>
        ) : null}
        {fields.length > 0 ? (
          <dl className="fields">
            {fields.map((f) => (
              <div key={f.rawId}>
                <dt>{f.name}</dt>
                <dd>{f.value}</dd>
              </div>
            ))}
          </dl>
        ) : null}
      </div>
      <p className="contact-last">
        {last ? (
          <>
            <span className="direction">{last.direction === 'incoming' ? 'Received' : 'Sent'}</span> <time dateTime={last.createdAt}>{when(last.createdAt)}</time>
            <br />
            <span className="last-text">{last.text ?? '(attachment)'}</span>
          </>
        ) : (
          <span className="muted">No messages yet</span>
        )}
      </p>
    </li>
  );
}
