import { dynamicImageColumns } from '../../db/columns.js';
import type { Selectable } from 'kysely';
import { isPostgres, type Executor } from '../../db/database.js';
import type { DynamicImagesTable } from '../../db/types.js';
import { countRows } from '../../db/count.js';
import { prepared } from '../../db/prepared.js';
import { containsInsensitive, postgresTrigramCandidates, usesTrigramIndex } from '../../db/search.js';
import { bool, idString, nowIso, parseJson, toBool } from '../../db/values.js';
import { sameWorkspace } from '../shared/scope.js';
import { imageLinkOf } from './dynamic-image-links.js';
import { withContractFields, type DynamicImage, type StoredDynamicImageData } from './dynamic-image.schema.js';

const toDynamicImage = (r: Selectable<DynamicImagesTable>): DynamicImage => ({
  id: idString(r.id),
  name: r.name,
  customFieldId: r.custom_field_id === null ? '' : idString(r.custom_field_id),
  backgroundUrl: r.background_url,
  imageUrl: imageLinkOf(idString(r.id)),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  enabled: toBool(r.enabled),
  data: storedData(r.data),
});

/**
 * Stored layouts hold what the input schema checked; answers carry every contract field of each
 * element, added to the layout as parsed here (withContractFields).
 */
function storedData(json: string): DynamicImage['data'] {
  const data = parseJson<StoredDynamicImageData>(json);
  // Layouts stored before the canvas had a colour are transparent.
  data.backgroundColor ??= '';
  for (const element of data.elements) withContractFields(element);
  return data as DynamicImage['data'];
}

/**
 * The name filter's cost must depend only on the workspace's own images. PostgreSQL: a name of 3+
 * characters is answered from the GIN index on the workspace's trigram tokens of the name
 * (`workspace_trigrams(workspace_id, name)`, src/db/search.ts), whose lists hold no other
 * workspace's images; the workspace check is then a plain filter (`sameWorkspace`), as for contacts
 * and error logs, so the plan is that index alone, whatever the table's statistics say about other
 * workspaces (given `workspace_id = ?`, the planner switched to AND-ing it with the workspace index
 * once another workspace grew). SQLite: the workspace's rows in (workspace_id, created_at, id)
 * order, each name tested. A name of 1 or 2 characters has no trigram: ILIKE (LIKE) over the
 * workspace's rows. The ILIKE (LIKE) filter stays on every path, so the results are exactly its.
 */
function filtered(db: Executor, workspaceId: number, name: string | undefined) {
  const images = db.selectFrom('dynamic_images');
  if (!name) return images.where('workspace_id', '=', workspaceId);
  const like = containsInsensitive(db, 'name', name);
  if (!isPostgres(db) || !usesTrigramIndex(name)) return images.where('workspace_id', '=', workspaceId).where(like);
  return images.where(sameWorkspace('workspace_id', workspaceId)).where(postgresTrigramCandidates(workspaceId, name)).where(like);
}

export async function countDynamicImages(db: Executor, workspaceId: number, name?: string): Promise<number> {
  return countRows(filtered(db, workspaceId, name));
}

/** Newest first, ties by id (newest id first): a stable order for page-number pagination. */
export async function listDynamicImages(db: Executor, workspaceId: number, opts: { name?: string; limit: number; offset: number }): Promise<DynamicImage[]> {
  const rows = await filtered(db, workspaceId, opts.name)
    .select(dynamicImageColumns)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(opts.limit)
    .offset(opts.offset)
    .execute();
  return rows.map(toDynamicImage);
}

/** Dynamic images by id in one statement; only this workspace's. */
export async function dynamicImagesByIds(db: Executor, workspaceId: number, ids: readonly number[]): Promise<DynamicImage[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('dynamic_images').select(dynamicImageColumns).where(sameWorkspace('workspace_id', workspaceId)).where('id', 'in', [...ids]).execute();
  return rows.map(toDynamicImage);
}

export async function findDynamicImageById(db: Executor, workspaceId: number, id: number): Promise<DynamicImage | null> {
  return (await dynamicImagesByIds(db, workspaceId, [id]))[0] ?? null;
}

/** The writable fields of an image, as stored: `customFieldId` a field id or null, `data` the layout. */
export interface DynamicImageWrite {
  name: string;
  customFieldId: number | null;
  backgroundUrl: string;
  enabled: boolean;
  data: StoredDynamicImageData;
}

const writeColumns = (w: DynamicImageWrite) => ({
  name: w.name,
  custom_field_id: w.customFieldId,
  background_url: w.backgroundUrl,
  enabled: bool(w.enabled),
  data: JSON.stringify(w.data),
});

/** A new image. Its `image_url` column is not read: answers carry the image's public link (imageLinkOf). */
export async function insertDynamicImage(db: Executor, workspaceId: number, w: DynamicImageWrite): Promise<DynamicImage> {
  const now = nowIso();
  const row = await db
    .insertInto('dynamic_images')
    .values({ workspace_id: workspaceId, ...writeColumns(w), image_url: '', created_at: now, updated_at: now })
    .returning(dynamicImageColumns)
    .executeTakeFirstOrThrow();
  return toDynamicImage(row);
}

/** Replaces every writable field; null when the workspace has no such image. */
export async function replaceDynamicImage(db: Executor, workspaceId: number, id: number, w: DynamicImageWrite): Promise<DynamicImage | null> {
  const row = await db
    .updateTable('dynamic_images')
    .set({ ...writeColumns(w), updated_at: nowIso() })
    .where('id', '=', id)
    .where('workspace_id', '=', workspaceId)
    .returning(dynamicImageColumns)
    .executeTakeFirst();
  return row ? toDynamicImage(row) : null;
}

/** Switches an image on or off; null when the workspace has no such image. */
export async function setDynamicImageEnabled(db: Executor, workspaceId: number, id: number, enabled: boolean): Promise<DynamicImage | null> {
  const row = await db
    .updateTable('dynamic_images')
    .set({ enabled: bool(enabled), updated_at: nowIso() })
    .where('id', '=', id)
    .where('workspace_id', '=', workspaceId)
    .returning(dynamicImageColumns)
    .executeTakeFirst();
  return row ? toDynamicImage(row) : null;
}

/** Deletes an image for good; false when the workspace has no such image. */
export async function deleteDynamicImage(db: Executor, workspaceId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom('dynamic_images').where('id', '=', id).where('workspace_id', '=', workspaceId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * An image by id whatever its workspace, with the workspace: only for the public link, which names
 * an image and proves its workspace by the token it carries (dynamic-image-links.ts).
 */
const imageForLink = prepared((db, p: { id: number }) => db.selectFrom('dynamic_images').select(dynamicImageColumns).where('id', '=', p.id));

export async function findDynamicImageForLink(db: Executor, id: number): Promise<{ workspaceId: number; image: DynamicImage } | null> {
  const row = await imageForLink.first(db, { id });
  return row ? { workspaceId: row.workspace_id, image: toDynamicImage(row) } : null;
}
