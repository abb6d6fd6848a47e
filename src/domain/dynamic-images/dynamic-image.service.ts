import type { Executor } from '../../db/database.js';
import { idNumber } from '../../db/values.js';
import { notFound, unknownReferences } from '../../errors/catalogue.js';
import { customFieldsByIds } from '../custom-fields/custom-field.repository.js';
import { fetchPage, type Page, type PageRequest } from '../shared/pagination.js';
import {
  countDynamicImages,
  deleteDynamicImage as deleteDynamicImageRow,
  findDynamicImageById,
  insertDynamicImage,
  listDynamicImages,
  replaceDynamicImage as replaceDynamicImageRow,
  setDynamicImageEnabled as setDynamicImageEnabledRow,
  type DynamicImageWrite,
} from './dynamic-image.repository.js';
import type { CreateDynamicImageInput, DynamicImage, ReplaceDynamicImageInput } from './dynamic-image.schema.js';

export const listDynamicImagesPage = (db: Executor, workspaceId: number, q: PageRequest & { name?: string }): Promise<Page<DynamicImage>> =>
  fetchPage(q, () => countDynamicImages(db, workspaceId, q.name), (w) => listDynamicImages(db, workspaceId, { name: q.name, ...w }));

const missing = () => notFound('Dynamic image');

/** The path id as a number; a digit string too large to be an id is no image. */
const imageKey = (id: string): number => {
  const key = idNumber(id);
  if (key === null) throw missing();
  return key;
};

export async function getDynamicImage(db: Executor, workspaceId: number, id: string): Promise<DynamicImage> {
  const found = await findDynamicImageById(db, workspaceId, imageKey(id));
  if (!found) throw missing();
  return found;
}

/**
 * The custom fields an image names (its own `customFieldId` and its elements') must be fields of
 * the workspace, checked in one statement: unknown ids (another workspace's read the same) are 422
 * `validation` with `data.field` `customFieldId` for the image's own, else
 * `data.elements.customFieldId`, and `data.ids` every unknown one of that field.
 */
async function assertFieldsExist(db: Executor, workspaceId: number, input: ReplaceDynamicImageInput | CreateDynamicImageInput): Promise<void> {
  const own = input.customFieldId === null ? [] : [input.customFieldId];
  const ofElements = input.data.elements.map((e) => e.customFieldId).filter((id) => id !== '');
  const all = [...new Set([...own, ...ofElements])];
  if (all.length === 0) return;
  // A digit string beyond the id range names nothing: it is unknown without asking.
  const keys = all.map(idNumber).filter((k): k is number => k !== null);
  const found = new Set((await customFieldsByIds(db, workspaceId, keys)).map((f) => f.id));
  const unknown = (ids: string[]) => [...new Set(ids)].filter((id) => !found.has(String(idNumber(id))));
  if (unknown(own).length > 0) throw unknownReferences('customFieldId', unknown(own));
  if (unknown(ofElements).length > 0) throw unknownReferences('data.elements.customFieldId', unknown(ofElements));
}

/** A custom field id in its canonical digits ("007" names field 7 and is stored as "7"); "" stays. */
const canonical = (id: string) => (id === '' ? '' : String(Number(id)));

const toWrite = (input: ReplaceDynamicImageInput | CreateDynamicImageInput): DynamicImageWrite => ({
  name: input.name,
  customFieldId: input.customFieldId === null ? null : Number(input.customFieldId),
  backgroundUrl: input.backgroundUrl,
  enabled: input.enabled,
  data: { ...input.data, elements: input.data.elements.map((e) => ({ ...e, customFieldId: canonical(e.customFieldId) })) },
});

/** A new image (enabled unless told otherwise); its imageUrl is "" until it is rendered. */
export async function createDynamicImage(db: Executor, workspaceId: number, input: CreateDynamicImageInput): Promise<DynamicImage> {
  return db.transaction().execute(async (trx) => {
    await assertFieldsExist(trx, workspaceId, input);
    return insertDynamicImage(trx, workspaceId, toWrite(input));
  });
}

/** Replaces every writable field (404 first, then the custom fields); imageUrl stays as it was. */
export async function replaceDynamicImage(db: Executor, workspaceId: number, id: string, input: ReplaceDynamicImageInput): Promise<DynamicImage> {
  const key = imageKey(id);
  return db.transaction().execute(async (trx) => {
    if (!(await findDynamicImageById(trx, workspaceId, key))) throw missing();
    await assertFieldsExist(trx, workspaceId, input);
    const replaced = await replaceDynamicImageRow(trx, workspaceId, key, toWrite(input));
    if (!replaced) throw missing();
    return replaced;
  });
}

export async function setDynamicImageEnabled(db: Executor, workspaceId: number, id: string, enabled: boolean): Promise<DynamicImage> {
  const updated = await setDynamicImageEnabledRow(db, workspaceId, imageKey(id), enabled);
  if (!updated) throw missing();
  return updated;
}

/** Permanent: the image is 404 afterwards. */
export async function deleteDynamicImage(db: Executor, workspaceId: number, id: string): Promise<{ success: true }> {
  if (!(await deleteDynamicImageRow(db, workspaceId, imageKey(id)))) throw missing();
  return { success: true };
}
