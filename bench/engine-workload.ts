// The engine bench's workload, shared by `bench/engine.ts` (signed webhooks through the real server)
// and `bench/engine-floor.ts` (the same answered comments' rows written straight to the database):
// a workspace with an inbox and `automations` active photo comment automations, each answering one
// keyword with an immediate private reply, and comments that each name one keyword (a PRNG with the
// seed), written by `authors` people in turn, so that every run makes the same contacts.
import { sql } from 'kysely';
import type { Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { createPhotoCommentAutomation } from '../src/domain/comment-automations/comment-automation.service.js';
import { createWorkspace } from '../src/domain/workspaces/workspace.service.js';

export const account = 'bench-photo-account';

/** mulberry32: a small seeded PRNG, so every run sends the same comments. */
export function prng(s: number) {
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The n-th comment (from 1): its id, its text naming one automation's keyword, and its author. */
export interface BenchComment {
  id: string;
  text: string;
  authorId: string;
  authorName: string;
}

export function commentSource(automations: number, authors: number, seed: number): () => BenchComment {
  const random = prng(seed);
  let serial = 0;
  return () => {
    const n = ++serial;
    return { id: `bc-${n}`, text: `Price of kw${Math.floor(random() * automations)} please`, authorId: `bu-${n % authors}`, authorName: `user${n % authors}` };
  };
}

/** A fresh schema (PostgreSQL: the URL's database is emptied of our tables first), the workspace, its inbox and automations; answers the workspace and inbox ids. */
export async function seedWorkspace(database: Database, automations: number): Promise<{ workspaceId: number; inboxId: number }> {
  const db = database.db;
  if (database.engine === 'postgres') {
    await sql`drop schema if exists public cascade`.execute(db);
    await sql`create schema public`.execute(db);
    await sql`drop schema if exists graphile_worker cascade`.execute(db);
  }
  await migrateToLatest(db);
  const { workspace } = await createWorkspace(db, { name: 'Engine bench' });
  const now = new Date().toISOString();
  const inbox = await db
    .insertInto('inboxes')
    .values({ workspace_id: workspace.id, name: 'Bench photo', channel: 'photo', source_id: account, status: 'active', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const options = { replyToNewContactsOnly: false, replyOncePerUserPerPost: false, likeUserComment: false, replyToUsersWhoCommentedOnOtherPosts: true, ignoreCommentReplies: false, trackUserTags: false };
  const hide = { all: false, hasPhoneNumber: false, hasImage: false, hasVideo: false, hasLink: false, hasKeywords: false, keywords: [], showCommentsAfter: 'none' as const };
  for (let i = 0; i < automations; i++) {
    await createPhotoCommentAutomation(db, workspace.id, {
      name: `Keyword ${i}`,
      type: 'photo',
      post: { type: 'all', value: [] },
      privateReply: { type: 'text', value: `Hi {{first_name}}, here is what you asked about (kw${i})` },
      publicReply: { type: 'none', value: null },
      includeKeywords: { type: 'contain', value: [`kw${i}`] },
      excludeKeywords: ['spam'],
      options,
      hideComments: hide,
      replyAfter: { type: 'immediately', value: 0 },
    });
  }
  return { workspaceId: workspace.id, inboxId: Number(inbox.id) };
}
