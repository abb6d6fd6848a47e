import { useState, type FormEvent } from 'react';
import { useMutation, type CombinedError } from 'urql';
import { graphql, useFragment, type FragmentType } from '../gql';
import { Problem } from '../Problem';

export const TagEditorFragment = graphql(`
  fragment TagEditor_contact on Contact {
    rawId
    tags {
      id
      name
    }
  }
`);

const AddTags = graphql(`
  mutation AddContactTags($identifier: String!, $names: [String!]!) {
    addContactTagsByName(identifier: $identifier, names: $names) {
      success
    }
  }
`);

const RemoveTags = graphql(`
  mutation RemoveContactTags($identifier: String!, $tagIds: [ID!]!) {
    removeContactTags(identifier: $identifier, tagIds: $tagIds) {
      success
    }
  }
`);

/** Every cached page that shows a contact or a tag is read again after a change. */
export const changesContacts = { additionalTypenames: ['Contact', 'Tag'] };

/** The contact's tags: remove one with its button, add one by name (a new name makes the tag). */
export function TagEditor(props: { contact: FragmentType<typeof TagEditorFragment>; known: readonly { id: string; name: string }[] }) {
  const contact = useFragment(TagEditorFragment, props.contact);
  const [name, setName] = useState('');
  const [error, setError] = useState<CombinedError | null>(null);
  const [adding, add] = useMutation(AddTags);
  const [removing, remove] = useMutation(RemoveTags);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const result = await add({ identifier: contact.rawId, names: [name.trim()] }, changesContacts);
    setError(result.error ?? null);
    if (!result.error) setName('');
  };
  const drop = async (tagId: string) => {
    const result = await remove({ identifier: contact.rawId, tagIds: [tagId] }, changesContacts);
    setError(result.error ?? null);
  };
  const suggestions = props.known.filter((tag) => !contact.tags.some((t) => t.id === tag.id));

  return (
    <section aria-labelledby="tags-title" className="panel">
      <h2 id="tags-title">Tags</h2>
      {contact.tags.length === 0 ? <p className="empty">No tags.</p> : null}
      <ul className="chips" aria-label="Tags of this contact">
        {contact.tags.map((tag) => (
          <li key={tag.id} className="chip">
            {tag.name}
            <button type="button" className="chip-remove" aria-label={`Remove tag ${tag.name}`} disabled={removing.fetching} onClick={() => drop(tag.id)}>
              ×
            </button>
          </li>
        ))}
      </ul>
      <form className="inline-form" onSubmit={submit}>
        <label>
          Add a tag
          <input list="tag-names" value={name} onChange={(e) => setName(e.target.value)} required maxLength={255} />
        </label>
        <datalist id="tag-names">
          {suggestions.map((tag) => (
            <option key={tag.id} value={tag.name} />
          ))}
        </datalist>
        <button type="submit" disabled={adding.fetching || name.trim() === ''}>
          Add
        </button>
      </form>
      {error ? <Problem error={error} /> : null}
    </section>
  );
}
