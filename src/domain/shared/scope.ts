import { sql, type Expression, type SqlBool } from 'kysely';

/**
 * `<column> = workspaceId` as a plain filter, for batch lookups by id or contact id (DataLoaders,
 * nested contacts, a chunk of engine events). Given `workspace_id = ? AND contact_id IN (...)`,
 * SQLite without table statistics prefers the workspace_id index and reads every row of the
 * workspace, where the batch needs a few (bench/README.md). The unary `+`, valid on both engines,
 * keeps the check and leaves the plan to the id or contact-id index. Those ids are unique across
 * workspaces, so that index is the selective one for every workspace size
 * (test/batch-lookups.query-plans.test.ts asks SQLite for the plans).
 */
export const sameWorkspace = (column: string, workspaceId: number): Expression<SqlBool> => sql<SqlBool>`+${sql.ref(column)} = ${workspaceId}`;
