import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Executor } from '../../db/database.js';
import { nowIso } from '../../db/values.js';
import { deleteRenders, deleteRendersOfImage, findRender, findRenderUse, insertRender, leastRecentlyUsed, storedBytes, touchRender, type StoredRender } from './dynamic-image-render.repository.js';

export interface RenderStoreOptions {
  /** Where the PNG files go (SQLite deployments); null keeps the bytes in the database (PostgreSQL). */
  dir: string | null;
  /** Past this many bytes of renders, the least recently used are deleted. */
  maxBytes: number;
}

/** A render's last use is written at most this often: a hot link must not cost a write per view. */
const TOUCH_EVERY_MS = 60_000;

/**
 * Rendered PNGs by content hash, with a size cap and least-recently-used eviction. The database
 * row is the index and the clock (`last_used_at`) on both engines; the bytes are in the row
 * (PostgreSQL: every process sees them) or in a file named by the hash beside the SQLite file (the
 * database stays small and a read is one file). A file is written before its row, so a row always
 * has its bytes; a file without a row (a crash between the two) is overwritten by the next render
 * of that hash.
 */
export class RenderStore {
  constructor(readonly options: RenderStoreOptions) {}

  private file(hash: string): string {
    return join(this.options.dir!, hash.slice(0, 2), `${hash}.png`);
  }

  /** Whether a hash is stored, counted as a use (a link that redirects to it): one indexed read. */
  async has(db: Executor, hash: string): Promise<boolean> {
    const lastUsedAt = await findRenderUse(db, hash);
    if (lastUsedAt === null) return false;
    await this.touch(db, hash, lastUsedAt);
    return true;
  }

  private async touch(db: Executor, hash: string, lastUsedAt: string): Promise<void> {
    if (Date.now() - Date.parse(lastUsedAt) > TOUCH_EVERY_MS) await touchRender(db, hash, nowIso());
  }

  /** The PNG of a hash, or null when it is not stored (never rendered, evicted, or its image changed). */
  async read(db: Executor, hash: string): Promise<Uint8Array | null> {
    // On disk only the use is read from the row: the bytes are the file's.
    const row = this.options.dir === null ? await findRender(db, hash) : await findRenderUse(db, hash).then((lastUsedAt) => (lastUsedAt === null ? null : { content: null, lastUsedAt }));
    if (!row) return null;
    await this.touch(db, hash, row.lastUsedAt);
    if (this.options.dir === null) return row.content;
    try {
      return await readFile(this.file(hash));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async write(db: Executor, row: Omit<StoredRender, 'size'>, png: Uint8Array): Promise<void> {
    const now = nowIso();
    if (this.options.dir !== null) {
      const file = this.file(row.hash);
      await mkdir(join(this.options.dir, row.hash.slice(0, 2)), { recursive: true });
      // Written aside and renamed: a reader never sees half a file.
      const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.part`;
      await writeFile(partial, png);
      await rename(partial, file);
    }
    await insertRender(db, { ...row, size: png.byteLength }, this.options.dir === null ? png : null, now);
    await this.evict(db);
  }

  /**
   * Drops an image's renders (its template changed or it was deleted): the rows in the caller's
   * transaction (so a bake job the same save enqueued, which runs after the commit, never sees its
   * new layer dropped), then, once it has committed, `removeFiles` with the hashes answered.
   */
  async dropImage(trx: Executor, imageId: number): Promise<string[]> {
    return deleteRendersOfImage(trx, imageId);
  }

  private async evict(db: Executor): Promise<void> {
    let over = (await storedBytes(db)) - this.options.maxBytes;
    while (over > 0) {
      const oldest = await leastRecentlyUsed(db, 100);
      if (oldest.length === 0) return;
      const victims: string[] = [];
      for (const r of oldest) {
        if (over <= 0) break;
        victims.push(r.hash);
        over -= r.size;
      }
      await deleteRenders(db, victims);
      await this.removeFiles(victims);
    }
  }

  async removeFiles(hashes: readonly string[]): Promise<void> {
    if (this.options.dir === null) return;
    await Promise.all(hashes.map((h) => rm(this.file(h), { force: true })));
  }
}
