import type { Executor } from '../../db/database.js';
import { listTags } from './tag.repository.js';

/** The workspace's tags by name; not paginated (the contract returns them all). */
export const listWorkspaceTags = (db: Executor, workspaceId: number) => listTags(db, workspaceId);
