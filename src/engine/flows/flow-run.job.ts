import { inTransaction, type Executor } from '../../db/database.js';
import type { ChannelAdapter } from '../../domain/channels/channel-adapter.js';
import { findContactById } from '../../domain/contacts/contact.repository.js';
import { conversationDestination } from '../../domain/flows/flow-destination.repository.js';
import { findFlowRun, moveFlowRun } from '../../domain/flows/flow-run.repository.js';
import { findFlowById } from '../../domain/flows/flow.repository.js';
import type { EngineDeps } from '../context.js';
import { runFlow } from './flow-runner.js';

/**
 * Sends a flow run the API asked for. With the sandbox the run's sends and its state commit
 * together (exactly once); with a network adapter the run is marked `sending` first, so a crash
 * mid-run never sends it twice (at most once). What stopped a run is its `reason`.
 */
export async function sendFlowRun(deps: EngineDeps, payload: { workspaceId: number; flowRunId: number }): Promise<void> {
  const join = deps.adapter.joinTransaction?.bind(deps.adapter);
  if (join) await inTransaction(deps.db, (trx) => attempt(deps, trx, join(trx), payload, 'pending'));
  else if (await moveFlowRun(deps.db, payload.flowRunId, 'pending', 'sending')) await attempt(deps, deps.db, deps.adapter, payload, 'sending');
}

async function attempt(deps: EngineDeps, db: Executor, adapter: ChannelAdapter, p: { workspaceId: number; flowRunId: number }, from: 'pending' | 'sending'): Promise<void> {
  const run = await findFlowRun(db, p.workspaceId, p.flowRunId);
  if (!run || run.status !== from) return;
  const finish = (status: 'sent' | 'failed', reason: string | null) => moveFlowRun(db, run.id, from, status, reason);
  const [flow, contact] = await Promise.all([findFlowById(db, p.workspaceId, run.flowId), findContactById(db, p.workspaceId, run.contactId)]);
  if (!flow || !contact) return void (await finish('failed', flow ? 'contactDeleted' : 'flowDeleted'));
  if (contact.blockedAt !== null) return void (await finish('failed', 'contactBlocked'));
  const destination = run.conversationId === null ? undefined : await conversationDestination(db, p.workspaceId, run.contactId, run.conversationId);
  if (!destination) return void (await finish('failed', 'noConversation'));
  const result = await runFlow({ db, adapter, queue: deps.queue, images: deps.images }, flow, { workspaceId: p.workspaceId, contact: { id: run.contactId, firstName: contact.firstName, lastName: contact.lastName }, destination }, `flow-run:${run.id}`, deps.clock.now());
  await finish(result.status, result.status === 'failed' ? result.reason : null);
}

