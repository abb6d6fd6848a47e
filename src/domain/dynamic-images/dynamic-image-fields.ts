import type { Executor } from '../../db/database.js';
import { idNumber } from '../../db/values.js';
import { customFieldsByIds, customFieldsByNames } from '../custom-fields/custom-field.repository.js';

/** The custom fields a template names, and the one rule that says which field a {{cf:...}} names. */
export interface NamedFields {
  /** Every field found (digit-string ids), for reading a contact's values. */
  ids: string[];
  /** The field a reference names: an id of the workspace's fields, else a field name in any case; undefined when none. */
  fieldOf(ref: string): string | undefined;
}

/**
 * The workspace's fields that {{cf:...}} references (`refs`, trimmed) may name, and the fields
 * `extraIds` name (elements' customFieldId), in at most two statements. A digit reference is
 * looked up as an id and as a name (a field may be called "2024"); one beyond the id range names
 * no id.
 */
export async function fieldsNamed(db: Executor, workspaceId: number, refs: readonly string[], extraIds: readonly number[] = []): Promise<NamedFields> {
  const digitIds = refs.map((r) => (/^\d+$/.test(r) ? idNumber(r) : null)).filter((k): k is number => k !== null);
  const [byId, byName] = await Promise.all([customFieldsByIds(db, workspaceId, [...new Set([...digitIds, ...extraIds])]), customFieldsByNames(db, workspaceId, [...new Set(refs)])]);
  const known = new Set([...byId, ...byName].map((f) => f.id));
  const idsByName = new Map(byName.map((f) => [f.name.toLowerCase(), f.id]));
  return {
    ids: [...known],
    fieldOf: (ref) => (/^\d+$/.test(ref) && known.has(String(Number(ref))) ? String(Number(ref)) : idsByName.get(ref.toLowerCase())),
  };
}
