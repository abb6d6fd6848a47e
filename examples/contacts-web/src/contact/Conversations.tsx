import { graphql, useFragment, type FragmentType } from '../gql';

export const ConversationsFragment = graphql(`
  fragment Conversations_contact on Contact {
    conversations {
      id
      rawId
      createdAt
      lastActivityAt
      archivedAt
      followed
      inbox {
        id
        name
        channel
      }
    }
    messages(first: 50) {
      edges {
        node {
          id
          conversationId
          direction
          status
          text
          createdAt
        }
      }
    }
  }
`);

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The contact's conversations, each with its messages (the newest 50 of the contact, oldest first). */
export function Conversations(props: { contact: FragmentType<typeof ConversationsFragment> }) {
  const contact = useFragment(ConversationsFragment, props.contact);
  const messages = [...contact.messages.edges.map((e) => e.node)].reverse();
  return (
    <section aria-labelledby="conversations-title" className="panel wide">
      <h2 id="conversations-title">Conversations</h2>
      {contact.conversations.length === 0 ? <p className="empty">No conversations yet.</p> : null}
      {contact.conversations.map((conversation) => {
        const own = messages.filter((m) => m.conversationId === conversation.rawId || m.conversationId === conversation.id);
        return (
          <article key={conversation.id} className="conversation">
            <h3>
              {conversation.inbox?.name ?? 'Inbox'} <span className="muted">· {conversation.inbox?.channel ?? ''}</span>
              {conversation.archivedAt ? <span className="badge">archived</span> : null}
              {conversation.followed ? <span className="badge">follow-up</span> : null}
            </h3>
            {own.length === 0 ? <p className="empty">No messages in the newest 50.</p> : null}
            <ol className="messages">
              {own.map((m) => (
                <li key={m.id} className={`message ${m.direction}`}>
                  <p>{m.text ?? '(attachment)'}</p>
                  <p className="muted">
                    <time dateTime={m.createdAt}>{when(m.createdAt)}</time> · {m.direction === 'incoming' ? 'received' : m.status}
                  </p>
                </li>
              ))}
            </ol>
          </article>
        );
      })}
    </section>
  );
}
