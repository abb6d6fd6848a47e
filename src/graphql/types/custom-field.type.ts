import type { CustomFieldRow, CustomFieldValueRow } from '../../domain/custom-fields/custom-field.repository.js';
import { builder } from '../builder.js';
import { nodeOptions, rawIdField } from '../node.js';

const read = { action: 'read', scope: 'contacts' } as const;

export const CustomFieldType = builder.node(builder.objectRef<CustomFieldRow>('CustomField'), {
  ...nodeOptions('CustomField', read, ({ loaders }) => loaders.customField),
  description: 'A custom field defined in the workspace (its definition, without any contact\'s value).',
  fields: (t) => ({
    rawId: rawIdField(t),
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    type: t.exposeString('type'),
  }),
});

export const ContactCustomFieldValueType = builder.objectRef<CustomFieldValueRow>('ContactCustomFieldValue').implement({
  description:
    'A custom field of the workspace with this contact\'s value ("" when unset). Not a Node (a field and a contact, not a record of its own): it has no `id`, so caches keep it inside its contact; `customField` is the Node.',
  fields: (t) => ({
    rawId: t.exposeString('id', { description: "The custom field's plain digit id, as the `id` of REST's /custom-fields items" }),
    customField: t.field({ type: CustomFieldType, resolve: (v) => ({ id: v.id, name: v.name, description: v.description, type: v.type }) }),
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    value: t.exposeString('value'),
    type: t.exposeString('type'),
  }),
});

