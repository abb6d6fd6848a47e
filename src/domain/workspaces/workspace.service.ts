import type { Executor } from '../../db/database.js';
import { idString } from '../../db/values.js';
import { notFound } from '../../errors/catalogue.js';
import { parseOrThrow } from '../../errors/validation.js';
import { issueToken, type IssuedToken } from '../auth/token.service.js';
import { insertUser } from '../users/user.repository.js';
import { createWorkspaceInput, type CreateWorkspaceInput, type Workspace } from './workspace.schema.js';
import { findWorkspace, insertWorkspace, setWorkspaceOwner, type WorkspaceRecord } from './workspace.repository.js';

export const presentWorkspace = (w: WorkspaceRecord): Workspace => ({
  id: idString(w.id),
  name: w.name,
  defaultReply: w.defaultReply,
  targetCountry: w.targetCountry,
  language: w.language,
  timezone: w.timezone,
  brandColor: w.brandColor,
  logo: w.logo,
  ownerId: w.ownerId === null ? '' : idString(w.ownerId),
  developmentMode: w.developmentMode,
  createdAt: w.createdAt,
  updatedAt: w.updatedAt,
});

export async function getWorkspace(db: Executor, workspaceId: number): Promise<WorkspaceRecord> {
  const w = await findWorkspace(db, workspaceId);
  if (!w) throw notFound('Workspace');
  return w;
}

export interface CreatedWorkspace {
  workspace: WorkspaceRecord;
  owner: { id: number; email: string };
  tokens: { developer: IssuedToken; user: IssuedToken };
}

/**
 * A new workspace with its owner and two full-permission tokens: one workspace API token and one
 * user access token for the owner. One transaction: a half-created workspace never exists.
 */
export async function createWorkspace(db: Executor, input: CreateWorkspaceInput): Promise<CreatedWorkspace> {
  const data = parseOrThrow(createWorkspaceInput, input);
  return db.transaction().execute(async (trx) => {
    const workspace = await insertWorkspace(trx, {
      name: data.name,
      trialEndsAt: data.trialEndsAt ?? null,
      macLimit: data.macLimit ?? null,
      developmentMode: data.developmentMode,
    });
    const slug = data.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'workspace';
    const owner = await insertUser(trx, workspace.id, { name: `${data.name} owner`, email: `owner+${workspace.id}@${slug}.example`, emailVerified: true });
    const owned = await setWorkspaceOwner(trx, workspace.id, owner.id);
    const developer = await issueToken(trx, workspace.id, { kind: 'developer', name: 'default workspace API token' });
    const user = await issueToken(trx, workspace.id, { kind: 'user', userId: owner.id, name: 'owner access token' });
    return { workspace: owned, owner: { id: owner.id, email: owner.email }, tokens: { developer, user } };
  });
}

export { countWorkspaceResources as getWorkspaceCounts, type WorkspaceCounts } from './workspace.repository.js';
