import type { Executor } from '../../db/database.js';
import { idNumber } from '../../db/values.js';
import { notFound, unknownReferences } from '../../errors/catalogue.js';
import { invalidRequestData, type Issue } from '../../errors/validation.js';
import type { JobQueue } from '../../queue/enqueue.js';
import { checkPublicUrl } from '../shared/public-url.js';
import type { RenderStore } from './dynamic-image-render-store.js';
import { customFieldRefs } from './dynamic-image-text.js';
import { fieldsNamed } from './dynamic-image-fields.js';
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
import { MAX_URL_LENGTH, type CreateDynamicImageInput, type DynamicImage, type ReplaceDynamicImageInput } from './dynamic-image.schema.js';

type IssuePath = Issue['path'];

/** The job that bakes a saved template's static layer (dynamic-image-render.service.ts bakeStaticLayer). */
export const BAKE_TASK = 'dynamicImages.bake';

/** What a save needs besides the database: the queue (the bake job), the outbound guard's exceptions, the render store. */
export interface DynamicImageSaving {
  queue: JobQueue;
  allowedHosts: readonly string[];
  store: RenderStore;
  /** Where the body sits in issue paths (`['body']` over REST, `['input']` in GraphQL). */
  at: IssuePath;
}

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
  const ofElements = input.data.elements.map((e) => ('customFieldId' in e ? e.customFieldId : '')).filter((id) => id !== '');
  const all = [...new Set([...own, ...ofElements])];
  if (all.length === 0) return;
  // A digit string beyond the id range names nothing: it is unknown without asking.
  const keys = all.map(idNumber).filter((k): k is number => k !== null);
  const found = new Set((await customFieldsByIds(db, workspaceId, keys)).map((f) => f.id));
  const unknown = (ids: string[]) => [...new Set(ids)].filter((id) => !found.has(String(idNumber(id))));
  if (unknown(own).length > 0) throw unknownReferences('customFieldId', unknown(own));
  if (unknown(ofElements).length > 0) throw unknownReferences('data.elements.customFieldId', unknown(ofElements));
}

/**
 * Every {{cf:...}} of the texts must name a custom field of the workspace, by id or by name (any
 * case): 422 `validation` with `data.field` `data.elements.text` and the unknown references.
 */
async function assertVariablesExist(db: Executor, workspaceId: number, input: ReplaceDynamicImageInput | CreateDynamicImageInput): Promise<void> {
  const refs = [...new Set(input.data.elements.flatMap((e) => (e.type === 'image' ? [] : customFieldRefs(e.text))))];
  if (refs.length === 0) return;
  const named = await fieldsNamed(db, workspaceId, refs);
  const unknown = refs.filter((r) => named.fieldOf(r) === undefined);
  if (unknown.length > 0) throw unknownReferences('data.elements.text', unknown.map((r) => `{{cf:${r}}}`));
}

/**
 * The URLs a template names literally (its background, its pictures and their fallbacks) are
 * fetched by the renderer: they must pass the outbound guard when saved (422 at the field), as a
 * webhook's URL does. Addresses a name resolves to are checked again at each fetch.
 */
function assertPublicUrls(input: ReplaceDynamicImageInput | CreateDynamicImageInput, saving: DynamicImageSaving): void {
  const issues: { message: string; path: IssuePath }[] = [];
  const check = (value: string, path: IssuePath) => {
    if (value === '') return;
    const checked = checkPublicUrl(value, { maxLength: MAX_URL_LENGTH, allowedHosts: saving.allowedHosts });
    if (!checked.ok) issues.push({ message: checked.message, path: [...saving.at, ...path] });
  };
  check(input.backgroundUrl, ['backgroundUrl']);
  input.data.elements.forEach((e, i) => {
    if (e.type === 'image') check(e.url, ['data', 'elements', i, 'url']);
  });
  if (issues.length > 0) throw invalidRequestData(issues);
}

/** A custom field id in its canonical digits ("007" names field 7 and is stored as "7"); "" stays. */
const canonical = (id: string) => (id === '' ? '' : String(Number(id)));

const toWrite = (input: ReplaceDynamicImageInput | CreateDynamicImageInput): DynamicImageWrite => ({
  name: input.name,
  customFieldId: input.customFieldId === null ? null : Number(input.customFieldId),
  backgroundUrl: input.backgroundUrl,
  enabled: input.enabled,
  data: { ...input.data, elements: input.data.elements.map((e) => (e.type === 'qrCode' ? e : { ...e, customFieldId: canonical(e.customFieldId) })) },
});

/** Its static layer is baked by a job after the save commits (one job per image revision). */
const enqueueBake = (trx: Executor, saving: DynamicImageSaving, workspaceId: number, image: DynamicImage) =>
  saving.queue.enqueue(trx, { task: BAKE_TASK, payload: { workspaceId, imageId: Number(image.id) }, key: `${BAKE_TASK}:${image.id}` });

/** A new image (enabled unless told otherwise); its static layer is baked by a job. */
export async function createDynamicImage(db: Executor, workspaceId: number, input: CreateDynamicImageInput, saving: DynamicImageSaving): Promise<DynamicImage> {
  assertPublicUrls(input, saving);
  return db.transaction().execute(async (trx) => {
    await assertFieldsExist(trx, workspaceId, input);
    await assertVariablesExist(trx, workspaceId, input);
    const image = await insertDynamicImage(trx, workspaceId, toWrite(input));
    await enqueueBake(trx, saving, workspaceId, image);
    return image;
  });
}

/**
 * Replaces every writable field (404 first, then the custom fields). Every render of the earlier
 * template is dropped (their hashes name the old revision, so no link reaches them again) and the
 * new static layer is baked by a job.
 */
export async function replaceDynamicImage(db: Executor, workspaceId: number, id: string, input: ReplaceDynamicImageInput, saving: DynamicImageSaving): Promise<DynamicImage> {
  const key = imageKey(id);
  assertPublicUrls(input, saving);
  const { image, dropped } = await db.transaction().execute(async (trx) => {
    if (!(await findDynamicImageById(trx, workspaceId, key))) throw missing();
    await assertFieldsExist(trx, workspaceId, input);
    await assertVariablesExist(trx, workspaceId, input);
    const replaced = await replaceDynamicImageRow(trx, workspaceId, key, toWrite(input));
    if (!replaced) throw missing();
    const hashes = await saving.store.dropImage(trx, key);
    await enqueueBake(trx, saving, workspaceId, replaced);
    return { image: replaced, dropped: hashes };
  });
  await saving.store.removeFiles(dropped);
  return image;
}

export async function setDynamicImageEnabled(db: Executor, workspaceId: number, id: string, enabled: boolean): Promise<DynamicImage> {
  const updated = await setDynamicImageEnabledRow(db, workspaceId, imageKey(id), enabled);
  if (!updated) throw missing();
  return updated;
}

/** Permanent: the image and its links are 404 afterwards, its renders deleted. */
export async function deleteDynamicImage(db: Executor, workspaceId: number, id: string, store: RenderStore): Promise<{ success: true }> {
  const key = imageKey(id);
  const dropped = await db.transaction().execute(async (trx) => {
    if (!(await deleteDynamicImageRow(trx, workspaceId, key))) throw missing();
    return store.dropImage(trx, key);
  });
  await store.removeFiles(dropped);
  return { success: true };
}
