import type { Executor } from '../../db/database.js';
import { idNumber } from '../../db/values.js';
import { notFound } from '../../errors/catalogue.js';
import { invalidRequestData, type Issue } from '../../errors/validation.js';
import { canonicalValue } from '../custom-fields/custom-field-value.js';
import { customFieldsByIds, type CustomFieldRecord } from '../custom-fields/custom-field.repository.js';
import type { IssuePath } from '../custom-fields/custom-field.service.js';
import { dynamicImagesByIds } from '../dynamic-images/dynamic-image.repository.js';
import { sequenceIdsAmong } from '../sequences/sequence.repository.js';
import { fetchPage, type Page, type PageRequest } from '../shared/pagination.js';
import { liveTagIdsAmong } from '../tags/tag.repository.js';
import { assertAllExist } from '../tags/tag.service.js';
import { countFlows, deleteFlow as deleteFlowRow, findFlowById, insertFlow, listFlows, updateFlow as updateFlowRow } from './flow.repository.js';
import type { CreateFlowInput, Flow, FlowItem, UpdateFlowInput } from './flow.schema.js';

/** The workspace's flows in creation order, a page at a time. */
export const listFlowsPage = (db: Executor, workspaceId: number, p: PageRequest): Promise<Page<Flow>> =>
  fetchPage(p, () => countFlows(db, workspaceId), (w) => listFlows(db, workspaceId, w));

const flowKey = (id: string): number => {
  const key = idNumber(id);
  if (key === null) throw notFound('Flow');
  return key;
};

export async function getFlow(db: Executor, workspaceId: number, id: string): Promise<Flow> {
  const found = await findFlowById(db, workspaceId, flowKey(id));
  if (!found) throw notFound('Flow');
  return found;
}

/** The ids the items name, of one kind, in item order (assertAllExist dedupes them). */
const named = <K extends string>(items: readonly FlowItem[], key: K): string[] =>
  items.flatMap((item) => (key in item ? [(item as Record<K, string>)[key]] : []));

/**
 * Checks what the schema cannot: every tag (live), custom field, sequence and dynamic image an item
 * names is the workspace's (404 naming the resource with `data.ids`, one statement per kind, in
 * that order), then every setCustomField value is a value of its field's type, by the same rules
 * as a contact's value (null or "" clears it): 422 at the item's `value`, every wrong one listed.
 * Values are stored as sent: the run writes them through the contact service, which stores the
 * canonical form of the field's type at that time.
 */
async function checkItems(db: Executor, workspaceId: number, items: readonly FlowItem[], at: IssuePath): Promise<void> {
  await assertAllExist(named(items, 'tagId'), 'Tag', (keys) => liveTagIdsAmong(db, workspaceId, keys));
  const fields = new Map<string, CustomFieldRecord>();
  await assertAllExist(named(items, 'customFieldId'), 'Custom field', async (keys) => {
    const found = await customFieldsByIds(db, workspaceId, keys);
    for (const f of found) fields.set(f.id, f);
    return found.map((f) => Number(f.id));
  });
  await assertAllExist(named(items, 'sequenceId'), 'Sequence', (keys) => sequenceIdsAmong(db, workspaceId, keys));
  await assertAllExist(named(items, 'imageId'), 'Dynamic image', async (keys) => (await dynamicImagesByIds(db, workspaceId, keys)).map((i) => Number(i.id)));

  const issues: Issue[] = [];
  items.forEach((item, index) => {
    if (item.type !== 'setCustomField' || item.value === null || item.value === '') return;
    // assertAllExist passed, so the field is there (its key is the id without leading zeros).
    const field = fields.get(String(Number(item.customFieldId)));
    if (!field) return;
    const canonical = canonicalValue(field.type, field.options, item.value);
    if (!canonical.ok) issues.push({ message: `value ${canonical.message}`, path: [...at, 'items', index, 'value'] });
  });
  if (issues.length > 0) throw invalidRequestData(issues);
}

/** Names are not unique: flows are told apart by id, as sequences are. */
export async function createFlow(db: Executor, workspaceId: number, input: CreateFlowInput, at: IssuePath): Promise<Flow> {
  return db.transaction().execute(async (trx) => {
    await checkItems(trx, workspaceId, input.items, at);
    return insertFlow(trx, workspaceId, { name: input.name, items: input.items });
  });
}

/** Items sent replace the whole list (and are checked as on create); fields left out keep their value. */
export async function updateFlow(db: Executor, workspaceId: number, id: string, input: UpdateFlowInput, at: IssuePath): Promise<Flow> {
  const key = flowKey(id);
  return db.transaction().execute(async (trx) => {
    if (!(await findFlowById(trx, workspaceId, key))) throw notFound('Flow');
    if (input.items !== undefined) await checkItems(trx, workspaceId, input.items, at);
    const updated = await updateFlowRow(trx, workspaceId, key, input);
    if (!updated) throw notFound('Flow');
    return updated;
  });
}

/**
 * Hard delete. Sequence steps that send the flow stay, sending nothing (their flow_id becomes null
 * by the foreign key); the flow's run records go with it.
 */
export async function deleteFlow(db: Executor, workspaceId: number, id: string): Promise<{ success: true }> {
  if (!(await deleteFlowRow(db, workspaceId, flowKey(id)))) throw notFound('Flow');
  return { success: true };
}
