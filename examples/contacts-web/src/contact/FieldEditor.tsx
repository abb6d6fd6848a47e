import { useState, type FormEvent } from 'react';
import { useMutation, type CombinedError } from 'urql';
import { graphql, useFragment, type FragmentType } from '../gql';
import { Problem } from '../Problem';
import { changesContacts } from './TagEditor';

export const FieldEditorFragment = graphql(`
  fragment FieldEditor_contact on Contact {
    rawId
    customFields {
      rawId
      name
      type
      description
      value
    }
  }
`);

const SetField = graphql(`
  mutation SetContactField($identifier: String!, $idOrName: String!, $value: String) {
    setContactCustomField(identifier: $identifier, idOrName: $idOrName, value: $value) {
      rawId
      value
    }
  }
`);

/** The input that suits the field's type; the API checks the value either way and says why it refuses one. */
const inputType = (type: string) => ({ number: 'text', date: 'date', email: 'email', url: 'url', phone: 'tel' })[type] ?? 'text';

function Field({ contactId, field }: { contactId: string; field: { rawId: string; name: string; type: string; description: string; value: string } }) {
  const [value, setValue] = useState(field.value);
  const [error, setError] = useState<CombinedError | null>(null);
  const [saving, save] = useMutation(SetField);
  const id = `field-${field.rawId}`;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const result = await save({ identifier: contactId, idOrName: field.rawId, value }, changesContacts);
    setError(result.error ?? null);
  };

  return (
    <form className="field-form" onSubmit={submit} noValidate>
      <label htmlFor={id}>
        {field.name} <span className="muted">({field.type})</span>
      </label>
      <div className="field-row">
        {field.type === 'boolean' ? (
          <select id={id} value={value} onChange={(e) => setValue(e.target.value)}>
            <option value="">(not set)</option>
            <option value="true">true</option>
            <option value="false">false</option>
          </select>
        ) : (
          <input id={id} type={inputType(field.type)} value={value} onChange={(e) => setValue(e.target.value)} title={field.description || undefined} />
        )}
        <button type="submit" disabled={saving.fetching || value === field.value}>
          Save
        </button>
      </div>
      {error ? <Problem error={error} /> : null}
    </form>
  );
}

/** One small form per field: saving one never sends the others. */
export function FieldEditor(props: { contact: FragmentType<typeof FieldEditorFragment> }) {
  const contact = useFragment(FieldEditorFragment, props.contact);
  return (
    <section aria-labelledby="fields-title" className="panel">
      <h2 id="fields-title">Custom fields</h2>
      {contact.customFields.length === 0 ? <p className="empty">The workspace has no custom fields.</p> : null}
      {contact.customFields.map((field) => (
        // A saved value from the API (another tab, an automation) resets the input.
        <Field key={`${field.rawId}:${field.value}`} contactId={contact.rawId} field={field} />
      ))}
    </section>
  );
}
