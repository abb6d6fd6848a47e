import { graphql, useFragment, type FragmentType } from '../gql';

export const NotesFragment = graphql(`
  fragment Notes_contact on Contact {
    notes {
      id
      text
      createdAt
    }
  }
`);

export function Notes(props: { contact: FragmentType<typeof NotesFragment> }) {
  const contact = useFragment(NotesFragment, props.contact);
  return (
    <section aria-labelledby="notes-title" className="panel">
      <h2 id="notes-title">Notes</h2>
      {contact.notes.length === 0 ? <p className="empty">No notes.</p> : null}
      <ul className="notes">
        {contact.notes.map((note) => (
          <li key={note.id}>
            <p>{note.text}</p>
            <time className="muted" dateTime={note.createdAt}>
              {new Date(note.createdAt).toLocaleDateString()}
            </time>
          </li>
        ))}
      </ul>
    </section>
  );
}
