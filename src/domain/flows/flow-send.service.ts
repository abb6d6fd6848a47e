import { inTransaction, type Executor } from '../../db/database.js';
import { idNumber } from '../../db/values.js';
import { AppError, notFound } from '../../errors/catalogue.js';
import type { JobQueue } from '../../queue/enqueue.js';
import { resolveContact } from '../contacts/contact.service.js';
import { destinationsOf } from './flow-destination.repository.js';
import { countRecentRuns, insertFlowRun } from './flow-run.repository.js';
import { findFlowById } from './flow.repository.js';
import type { SendFlowInput } from './flow-send.schema.js';

/** The job that sends an API-requested flow run (src/engine/flows/flow-run.job.ts). */
export const FLOW_RUN_TASK = 'flow-run';
/** Flows the API may send one contact per rolling hour. */
export const FLOW_SENDS_PER_HOUR = 100;
const HOUR_MS = 60 * 60 * 1000;

/**
 * POST /v1/contacts/{identifier}/flows: checks the contact (404 Contact), the flow (404 Flow) and
 * that the contact has a conversation (in `inboxId` when given: 404 Conversation otherwise), counts
 * the contact's API sends of the last hour (429 past FLOW_SENDS_PER_HOUR), then records the run and
 * its job in one transaction. The messages go out from the job, in order.
 */
export async function sendFlow(db: Executor, queue: JobQueue, workspaceId: number, identifier: string, input: SendFlowInput, now = new Date()): Promise<void> {
  await inTransaction(db, async (trx) => {
    const contactId = Number((await resolveContact(trx, workspaceId, identifier)).id);
    const flowId = idNumber(input.flowId);
    if (flowId === null || !(await findFlowById(trx, workspaceId, flowId))) throw notFound('Flow');
    const inboxId = input.inboxId === undefined ? undefined : (idNumber(input.inboxId) ?? -1);
    const destination = (await destinationsOf(trx, workspaceId, [contactId], inboxId)).get(contactId);
    if (!destination) throw notFound('Conversation');
    const recent = await countRecentRuns(trx, contactId, 'api', new Date(now.getTime() - HOUR_MS).toISOString());
    if (recent.count >= FLOW_SENDS_PER_HOUR) {
      const retryAfterSeconds = Math.max(1, Math.ceil((Date.parse(recent.oldest!) + HOUR_MS - now.getTime()) / 1000));
      throw new AppError('tooManyRequests', { data: { budget: 'flowSends', limit: FLOW_SENDS_PER_HOUR, retryAfterSeconds }, headers: { 'retry-after': String(retryAfterSeconds) } });
    }
    const runId = await insertFlowRun(trx, { workspaceId, flowId, contactId, conversationId: destination.conversationId, source: 'api' });
    await queue.enqueue(trx, { task: FLOW_RUN_TASK, payload: { workspaceId, flowRunId: runId }, key: `flow-run:${runId}` });
  });
}
