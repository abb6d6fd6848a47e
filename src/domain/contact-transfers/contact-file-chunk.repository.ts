import type { Executor } from '../../db/database.js';

/** The pieces of a file's bytes kept in the database (contact-file.store.ts), by their order `seq`. */
export async function insertFileChunk(db: Executor, fileId: number, seq: number, content: Uint8Array): Promise<void> {
  await db.insertInto('contact_file_chunks').values({ file_id: fileId, seq, content }).execute();
}

/** The file's piece `seq`, or null past its last one. */
export async function findFileChunk(db: Executor, fileId: number, seq: number): Promise<Uint8Array | null> {
  const row = await db.selectFrom('contact_file_chunks').select('content').where('file_id', '=', fileId).where('seq', '=', seq).executeTakeFirst();
  return row ? row.content : null;
}

export async function deleteFileChunks(db: Executor, fileId: number): Promise<void> {
  await db.deleteFrom('contact_file_chunks').where('file_id', '=', fileId).execute();
}
