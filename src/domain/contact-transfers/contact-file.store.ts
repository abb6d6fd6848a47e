import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import type { Executor } from '../../db/database.js';
import { deleteFileChunks, findFileChunk, insertFileChunk } from './contact-file-chunk.repository.js';

/** A file's bytes in the database are cut into pieces of this size (one row each). */
const CHUNK_BYTES = 256 * 1024;

/**
 * The bytes of contact files (uploads for imports, exports), written and read as streams: a 20 MB
 * file never sits in memory whole. SQLite deployments keep them in files beside the database (the
 * database stays small, a read is one file); PostgreSQL in `contact_file_chunks`, so every process
 * on the database reads what another wrote. A file is written whole before `write` resolves; a
 * write that fails leaves nothing behind.
 */
export interface FileStore {
  /** Writes the file's bytes from `chunks`; answers how many there were. */
  write(db: Executor, fileId: number, chunks: AsyncIterable<Uint8Array>): Promise<number>;
  /** The file's bytes, in pieces. A missing file reads as nothing. */
  read(db: Executor, fileId: number): AsyncIterable<Uint8Array>;
  delete(db: Executor, fileId: number): Promise<void>;
}

/** Files named by id in `dir`; written to a `.part` file, renamed once whole. */
export function diskFileStore(dir: string): FileStore {
  const path = (fileId: number) => join(dir, `${fileId}.csv`);
  return {
    async write(_db, fileId, chunks) {
      await mkdir(dir, { recursive: true });
      const part = `${path(fileId)}.part`;
      const out = createWriteStream(part);
      let size = 0;
      try {
        for await (const chunk of chunks) {
          size += chunk.byteLength;
          if (!out.write(chunk)) await new Promise<void>((resolve, reject) => out.once('drain', resolve).once('error', reject));
        }
        out.end();
        await finished(out);
      } catch (err) {
        out.destroy();
        await rm(part, { force: true });
        throw err;
      }
      await rename(part, path(fileId));
      return size;
    },
    async *read(_db, fileId) {
      try {
        yield* createReadStream(path(fileId), { highWaterMark: CHUNK_BYTES }) as AsyncIterable<Buffer>;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    },
    async delete(_db, fileId) {
      await rm(path(fileId), { force: true });
    },
  };
}

/**
 * Files as rows of CHUNK_BYTES pieces (the last one shorter), each inserted as it fills: no
 * transaction stays open while a slow client uploads. The file's row says when it is whole (its
 * status), so a reader never reads a half-written file; a write that fails deletes its pieces.
 */
export function databaseFileStore(): FileStore {
  return {
    async write(db, fileId, chunks) {
      await deleteFileChunks(db, fileId);
      let seq = 0;
      let size = 0;
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      const flush = (bytes: Buffer) => insertFileChunk(db, fileId, seq++, bytes);
      try {
        for await (const chunk of chunks) {
          size += chunk.byteLength;
          pending.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          pendingBytes += chunk.byteLength;
          if (pendingBytes < CHUNK_BYTES) continue;
          const all = Buffer.concat(pending);
          let at = 0;
          for (; all.byteLength - at >= CHUNK_BYTES; at += CHUNK_BYTES) await flush(all.subarray(at, at + CHUNK_BYTES));
          pending = [all.subarray(at)];
          pendingBytes = all.byteLength - at;
        }
        if (pendingBytes > 0) await flush(Buffer.concat(pending));
      } catch (err) {
        await deleteFileChunks(db, fileId);
        throw err;
      }
      return size;
    },
    async *read(db, fileId) {
      for (let seq = 0; ; seq++) {
        const content = await findFileChunk(db, fileId, seq);
        if (!content) return;
        yield content;
      }
    },
    async delete(db, fileId) {
      await deleteFileChunks(db, fileId);
    },
  };
}
