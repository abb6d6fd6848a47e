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
    .selectFrom('contact_custom_fields as v')
    .innerJoin('custom_fields as f', 'f.id', 'v.custom_field_id')
    .select(['v.id', 'v.created_at', 'v.updated_at', 'v.value', 'v.contact_id', 'v.custom_field_id'])
    .where(sameWorkspace('v.workspace_id', workspaceId))
    .where(sameWorkspace('f.workspace_id', workspaceId))
    .where('v.contact_id', 'in', [...contactIds])
    .orderBy('v.custom_field_id')
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
    .leftJoin('contact_custom_fields as v', (j) =>
      j.onRef('v.contact_id', '=', 'c.id').onRef('v.custom_field_id', '=', 'f.id').on(sameWorkspace('v.workspace_id', workspaceId)),
    )
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

/** A custom field's definition. */
export interface CustomFieldRow {
  id: string;
  name: string;
  description: string;
  type: string;
}

/** Custom field definitions by id in one statement; only this workspace's. */
export async function customFieldsByIds(db: Executor, workspaceId: number, ids: readonly number[]): Promise<CustomFieldRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('custom_fields')
    .select(['id', 'name', 'description', 'type'])
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', [...ids])
    .execute();
  return rows.map((r) => ({ id: idString(r.id), name: r.name, description: r.description, type: r.type }));
}
