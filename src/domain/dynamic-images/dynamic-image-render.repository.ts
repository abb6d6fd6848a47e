import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { prepared } from '../../db/prepared.js';

/** A stored render by content hash (the bytes are in `content` or in a file: dynamic-image-render-store.ts). */
export interface StoredRender {
  hash: string;
  workspaceId: number;
  imageId: number;
  kind: 'layer' | 'render';
  size: number;
}

// Prepared (compiled once): a cached link asks these on every view.
const renderUse = prepared((db, p: { hash: string }) => db.selectFrom('dynamic_image_renders').select('last_used_at').where('hash', '=', p.hash));
const renderContent = prepared((db, p: { hash: string }) => db.selectFrom('dynamic_image_renders').select(['content', 'last_used_at']).where('hash', '=', p.hash));

/** When a stored render was last used; null when it is not stored. */
export async function findRenderUse(db: Executor, hash: string): Promise<string | null> {
  return (await renderUse.first(db, { hash }))?.last_used_at ?? null;
}

export async function findRender(db: Executor, hash: string): Promise<{ content: Uint8Array | null; lastUsedAt: string } | null> {
  const row = await renderContent.first(db, { hash });
  return row ? { content: row.content, lastUsedAt: row.last_used_at } : null;
}

/** Whether these hashes are stored, in one statement. */
export async function storedHashes(db: Executor, hashes: readonly string[]): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const rows = await db.selectFrom('dynamic_image_renders').select('hash').where('hash', 'in', [...hashes]).execute();
  return new Set(rows.map((r) => r.hash));
}

/** Stores a render once: a second writer of the same hash (same bytes) changes nothing. */
export async function insertRender(db: Executor, row: StoredRender, content: Uint8Array | null, now: string): Promise<void> {
  await db
    .insertInto('dynamic_image_renders')
    .values({ hash: row.hash, workspace_id: row.workspaceId, image_id: row.imageId, kind: row.kind, size: row.size, content, created_at: now, last_used_at: now })
    .onConflict((oc) => oc.column('hash').doNothing())
    .execute();
}

export async function touchRender(db: Executor, hash: string, now: string): Promise<void> {
  await db.updateTable('dynamic_image_renders').set({ last_used_at: now }).where('hash', '=', hash).execute();
}

/** Deletes an image's renders; answers their hashes (their files go too). */
export async function deleteRendersOfImage(db: Executor, imageId: number): Promise<string[]> {
  const rows = await db.deleteFrom('dynamic_image_renders').where('image_id', '=', imageId).returning('hash').execute();
  return rows.map((r) => r.hash);
}

export async function storedBytes(db: Executor): Promise<number> {
  const row = await db.selectFrom('dynamic_image_renders').select(sql<number | string | null>`sum(size)`.as('total')).executeTakeFirst();
  return Number(row?.total ?? 0);
}

/** The least recently used renders, oldest first, until their sizes add up to `bytes`. */
export async function leastRecentlyUsed(db: Executor, limit: number): Promise<{ hash: string; size: number }[]> {
  return db.selectFrom('dynamic_image_renders').select(['hash', 'size']).orderBy('last_used_at').orderBy('hash').limit(limit).execute();
}

export async function deleteRenders(db: Executor, hashes: readonly string[]): Promise<void> {
  if (hashes.length === 0) return;
  await db.deleteFrom('dynamic_image_renders').where('hash', 'in', [...hashes]).execute();
}
