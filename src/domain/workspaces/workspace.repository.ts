import { contactInWorkspace } from '../conversations/conversation.repository.js';
import type { Executor } from '../../db/database.js';
import { countRows } from '../../db/count.js';
import { bool, nowIso, toBool } from '../../db/values.js';
import type { WorkspacesTable } from '../../db/types.js';
import type { Selectable } from 'kysely';

export interface WorkspaceRecord {
  id: number;
  name: string;
  defaultReply: string;
  targetCountry: string;
  language: string;
  timezone: string;
  brandColor: string;
  logo: string;
  ownerId: number | null;
  developmentMode: boolean;
  trialEndsAt: string | null;
  macLimit: number | null;
  createdAt: string;
  updatedAt: string;
}

const toRecord = (r: Selectable<WorkspacesTable>): WorkspaceRecord => ({
  id: r.id,
  name: r.name,
  defaultReply: r.default_reply ?? '',
  targetCountry: r.target_country ?? '',
  language: r.language ?? '',
  timezone: r.timezone ?? '',
  brandColor: r.brand_color ?? '',
  logo: r.logo ?? '',
  ownerId: r.owner_id,
  developmentMode: toBool(r.development_mode),
  trialEndsAt: r.trial_ends_at,
  macLimit: r.mac_limit,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export async function findWorkspace(db: Executor, workspaceId: number): Promise<WorkspaceRecord | null> {
  const row = await db.selectFrom('workspaces').selectAll().where('id', '=', workspaceId).executeTakeFirst();
  return row ? toRecord(row) : null;
}

export async function insertWorkspace(
  db: Executor,
  w: { name: string; trialEndsAt: string | null; macLimit: number | null; developmentMode: boolean },
): Promise<WorkspaceRecord> {
  const now = nowIso();
  const row = await db
    .insertInto('workspaces')
    .values({
      name: w.name,
      default_reply: 'Thanks for your message! We will get back to you shortly.',
      target_country: 'US',
      language: 'en',
      timezone: 'UTC',
      brand_color: '#2563eb',
      logo: '',
      development_mode: bool(w.developmentMode),
      trial_ends_at: w.trialEndsAt,
      mac_limit: w.macLimit,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toRecord(row);
}

/** Sets the owner; returns the record as stored (the update moves updatedAt). */
export async function setWorkspaceOwner(db: Executor, workspaceId: number, ownerId: number): Promise<WorkspaceRecord> {
  const row = await db
    .updateTable('workspaces')
    .set({ owner_id: ownerId, updated_at: nowIso() })
    .where('id', '=', workspaceId)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toRecord(row);
}

export async function countWorkspaces(db: Executor): Promise<number> {
  return countRows(db.selectFrom('workspaces'));
}

/** How many records of each area a workspace holds (live tags only). */
export interface WorkspaceCounts {
  contacts: number;
  tags: number;
  conversations: number;
  commentAutomations: number;
  leadAdAutomations: number;
  dynamicImages: number;
  errorLogs: number;
}

/** Every count in one statement (scalar subqueries, each served by a workspace_id index). */
export async function countWorkspaceResources(db: Executor, workspaceId: number): Promise<WorkspaceCounts> {
  const row = await db
    .selectNoFrom((eb) => {
      type Counted = 'contacts' | 'comment_automations' | 'lead_ad_automations' | 'dynamic_images' | 'error_logs';
      // Every counted table has a workspace_id column; Kysely cannot type a union of tables, so name one.
      const count = (table: Counted) =>
        eb.selectFrom(table as 'contacts').where('workspace_id', '=', workspaceId).select((e) => e.fn.countAll<number>().as('n'));
      return [
        count('contacts').as('contacts'),
        eb.selectFrom('tags').where('workspace_id', '=', workspaceId).where('deleted_at', 'is', null).select((e) => e.fn.countAll<number>().as('n')).as('tags'),
        // As listed: a conversation whose contact is in another workspace is not there.
        eb
          .selectFrom('conversations')
          .where('workspace_id', '=', workspaceId)
          .where(contactInWorkspace(workspaceId))
          .select((e) => e.fn.countAll<number>().as('n'))
          .as('conversations'),
        count('comment_automations').as('commentAutomations'),
        count('lead_ad_automations').as('leadAdAutomations'),
        count('dynamic_images').as('dynamicImages'),
        count('error_logs').as('errorLogs'),
      ];
    })
    .executeTakeFirstOrThrow();
  // PostgreSQL returns counts as bigint (strings without a type parser): one shape for services.
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)])) as unknown as WorkspaceCounts;
}
