import type { ChannelError } from '../../domain/channels/channel-error.js';
import type { Executor } from '../../db/database.js';
import { insertErrorLog } from '../../domain/error-logs/error-log.repository.js';

/** One error log of the workspace (GET /v1/error-logs), in `db` (the caller's transaction when given one). */
export const writeErrorLog = async (db: Executor, workspaceId: number, e: { contactId?: number | null; action: string; detail: string; httpCode: string }): Promise<void> => {
  await insertErrorLog(db, workspaceId, { ...e, contactId: e.contactId ?? null });
};

/**
 * A failed adapter call: `action` the channel, `detail` the network's own message, `httpCode` its
 * HTTP status ("500" when no network answered: the sandbox, a timeout, a refused connection; as
 * the queue's and the comment engine's logs do).
 */
export const logChannelError = (db: Executor, workspaceId: number, channel: string, err: ChannelError, contactId: number | null = null): Promise<void> =>
  writeErrorLog(db, workspaceId, { contactId, action: channel, detail: err.providerMessage, httpCode: err.httpCode === null ? '500' : String(err.httpCode) });
