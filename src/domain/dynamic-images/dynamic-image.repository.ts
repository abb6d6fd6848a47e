import type { Executor } from '../../db/database.js';
import { countRows } from '../../db/count.js';
import { containsInsensitive } from '../../db/search.js';
import { idString, parseJson, toBool } from '../../db/values.js';
import type { DynamicImage } from './dynamic-image.schema.js';

function filtered(db: Executor, workspaceId: number, name: string | undefined) {
  let q = db.selectFrom('dynamic_images').where('workspace_id', '=', workspaceId);
  if (name) q = q.where(containsInsensitive(db, 'name', name));
  return q;
}

export async function countDynamicImages(db: Executor, workspaceId: number, name?: string): Promise<number> {
  return countRows(filtered(db, workspaceId, name));
}

/** Newest first, ties by id (newest id first): a stable order for page-number pagination. */
export async function listDynamicImages(db: Executor, workspaceId: number, opts: { name?: string; limit: number; offset: number }): Promise<DynamicImage[]> {
  const rows = await filtered(db, workspaceId, opts.name)
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(opts.limit)
    .offset(opts.offset)
    .execute();
  return rows.map((r) => ({
    id: idString(r.id),
    name: r.name,
    customFieldId: r.custom_field_id === null ? '' : idString(r.custom_field_id),
    backgroundUrl: r.background_url,
    imageUrl: r.image_url,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    enabled: toBool(r.enabled),
    data: parseJson(r.data),
  }));
}
