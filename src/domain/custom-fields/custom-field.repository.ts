import type { Executor } from '../../db/database.js';
import { idString } from '../../db/values.js';
import { sameWorkspace } from '../shared/scope.js';

export interface ContactCustomFieldRow {
  id: string;
  createdAt: string;
  updatedAt: string;
  value: string;
  contactId: string;
  customFieldId: string;
}

export interface CustomFieldValueRow {
  id: string;
  name: string;
  description: string;
  value: string;
  type: string;
  contactId: string;
}

/** Stored values of many contacts at once (contact objects and DataLoaders), ordered by field. */
export async function valuesForContacts(db: Executor, workspaceId: number, contactIds: readonly number[]): Promise<ContactCustomFieldRow[]> {
  if (contactIds.length === 0) return [];
  const rows = await db
    .selectFrom('contact_custom_fields')
    .select(['id', 'created_at', 'updated_at', 'value', 'contact_id', 'custom_field_id'])
    .where(sameWorkspace('workspace_id', workspaceId))
    .where('contact_id', 'in', [...contactIds])
    .orderBy('custom_field_id')
    .execute();
  return rows.map((r) => ({
    id: idString(r.id),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    value: r.value,
    contactId: idString(r.contact_id),
    customFieldId: idString(r.custom_field_id),
  }));
}

/**
 * Every custom field defined in the workspace, each with the contact's value ('' when unset), for
 * many contacts in one statement: the cross product of contacts and definitions, left-joined to values.
 */
export async function fieldValuesForContacts(db: Executor, workspaceId: number, contactIds: readonly number[]): Promise<CustomFieldValueRow[]> {
  if (contactIds.length === 0) return [];
  const rows = await db
    .selectFrom('contacts as c')
    .innerJoin('custom_fields as f', (j) => j.onRef('f.workspace_id', '=', 'c.workspace_id'))
    .leftJoin('contact_custom_fields as v', (j) => j.onRef('v.contact_id', '=', 'c.id').onRef('v.custom_field_id', '=', 'f.id'))
    .select(['f.id', 'f.name', 'f.description', 'f.type', 'v.value', 'c.id as contact_id'])
    .where(sameWorkspace('c.workspace_id', workspaceId))
    .where('c.id', 'in', [...contactIds])
    .orderBy('c.id')
    .orderBy('f.id')
    .execute();
  return rows.map((r) => ({
    id: idString(r.id),
    name: r.name,
    description: r.description,
    value: r.value ?? '',
    type: r.type,
    contactId: idString(r.contact_id),
  }));
}
