import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { UsersTable } from '../../db/types.js';
import { bool, nowIso, toBool } from '../../db/values.js';
import { inIds, prepared } from '../../db/prepared.js';

export interface UserRecord {
  id: number;
  workspaceId: number;
  name: string;
  email: string;
  emailVerified: boolean;
  image: string | null;
  isAnonymous: boolean;
  createdAt: string;
  updatedAt: string;
}

export const toUser = (r: Selectable<UsersTable>): UserRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  name: r.name,
  email: r.email,
  emailVerified: toBool(r.email_verified),
  image: r.image,
  isAnonymous: toBool(r.is_anonymous),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export async function insertUser(
  db: Executor,
  workspaceId: number,
  u: { name: string; email: string; emailVerified?: boolean; image?: string | null },
): Promise<UserRecord> {
  const now = nowIso();
  const row = await db
    .insertInto('users')
    .values({
      workspace_id: workspaceId,
      name: u.name,
      email: u.email,
      email_verified: bool(u.emailVerified ?? false),
      image: u.image ?? null,
      is_anonymous: 0,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toUser(row);
}

/** Users of one workspace by id, for DataLoaders; unknown ids are simply absent. */
export async function findUsersByIds(db: Executor, workspaceId: number, ids: readonly number[]): Promise<UserRecord[]> {
  if (ids.length === 0) return [];
  const rows = await usersOf.all(db, { workspaceId, ids });
  return rows.map(toUser);
}

const usersOf = prepared((db, p: { workspaceId: number; ids: readonly number[] }) =>
  db.selectFrom('users').selectAll().where('workspace_id', '=', p.workspaceId).where(inIds(db, 'id', p.ids)),
);

/** The user a token acts as: the one named when given, else the workspace's owner; null when none. */
export async function findActingUserId(db: Executor, workspaceId: number, userId?: number): Promise<number | null> {
  const row = await db
    .selectFrom('users')
    .select('users.id')
    .innerJoin('workspaces', 'workspaces.id', 'users.workspace_id')
    .where('users.workspace_id', '=', workspaceId)
    .$if(userId !== undefined, (q) => q.where('users.id', '=', userId!))
    .$if(userId === undefined, (q) => q.whereRef('users.id', '=', 'workspaces.owner_id'))
    .executeTakeFirst();
  return row?.id ?? null;
}
