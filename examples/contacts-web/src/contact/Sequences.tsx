import { graphql, useFragment, type FragmentType } from '../gql';

export const SequencesFragment = graphql(`
  fragment Sequences_contact on Contact {
    sequences {
      sequenceId
      sequenceName
    }
  }
`);

export function Sequences(props: { contact: FragmentType<typeof SequencesFragment> }) {
  const contact = useFragment(SequencesFragment, props.contact);
  return (
    <section aria-labelledby="sequences-title" className="panel">
      <h2 id="sequences-title">Sequences</h2>
      {contact.sequences.length === 0 ? <p className="empty">Not subscribed to any sequence.</p> : null}
      <ul className="plain">
        {contact.sequences.map((s) => (
          <li key={s.sequenceId}>{s.sequenceName}</li>
        ))}
      </ul>
    </section>
  );
}
