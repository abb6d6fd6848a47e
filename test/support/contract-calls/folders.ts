import type { Executor } from '../../../src/db/database.js';
import type { FolderType } from '../../../src/domain/folders/folder.schema.js';
import { T0 } from '../fixtures.js';
import type { CallTable } from './seed.js';

/** Inserts a folder of the workspace (out of the trash unless told, stamped T0 unless told); its id. */
export async function insertFolder(
  db: Executor,
  workspaceId: number,
  type: FolderType,
  name: string,
  opts: { parentId?: number | null; isTrash?: boolean; at?: string } = {},
): Promise<number> {
  const at = opts.at ?? T0;
  const row = await db
    .insertInto('folders')
    .values({ workspace_id: workspaceId, type, name, parent_id: opts.parentId ?? null, is_trash: opts.isTrash ? 1 : 0, created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Per kind: a folder the calls name, and one the delete call consumes. */
export async function seedFolders(db: Executor, workspaceId: number) {
  const kind = async (type: FolderType) => ({ top: await insertFolder(db, workspaceId, type, 'Top'), disposable: await insertFolder(db, workspaceId, type, 'To delete') });
  return { sequence: await kind('sequence'), commentAutomation: await kind('commentAutomation') };
}

let created = 0;

/** Folders of sequences and of comment automations. */
export const folderCalls: CallTable = Object.fromEntries(
  (
    [
      ['sequences', 'sequence', '/v1/sequence-folders'],
      ['commentAutomations', 'commentAutomation', '/v1/comment-automation-folders'],
    ] as const
  ).flatMap(([prefix, type, path]) => [
    [`${prefix}.listFolders`, (s) => ({ method: 'GET', path: `${path}?parentId=${s.folders[type].top}&isTrash=false&page=1&perPage=10` })],
    [`${prefix}.createFolder`, (s) => ({ method: 'POST', path, body: { name: `Folder ${++created}`, parentId: String(s.folders[type].top) } })],
    [`${prefix}.updateFolder`, (s) => ({ method: 'PUT', path: `${path}/${s.folders[type].top}`, body: { name: 'Top (renamed)' } })],
    [`${prefix}.deleteFolder`, (s) => ({ method: 'DELETE', path: `${path}/${s.folders[type].disposable}` })],
  ]),
) as CallTable;
