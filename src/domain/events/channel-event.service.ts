import type { Executor } from '../../db/database.js';
import { AppError, unknownReferences } from '../../errors/catalogue.js';
import { channelEvents } from '../../observability/metrics.js';
import type { JobQueue } from '../../queue/enqueue.js';
import type { JsonValue } from '../../queue/types.js';
import type { Logger } from '../../observability/logger.js';
import type { Channel } from '../comment-automations/comment-automation.schema.js';
import { findWorkspace } from '../workspaces/workspace.repository.js';
import { upsertSandboxRecord } from '../sandbox/sandbox-record.repository.js';
import { normaliseEntries } from './channel-event.normalise.js';
import { findInboxesByAccount, insertChannelEvents, type EventInbox } from './channel-event.repository.js';
import type { AccountEvent, ChannelEvent, DevEventsInput, IngestResult, WebhookBody } from './channel-event.schema.js';
import { webhookObject } from './channel-event.schema.js';

/** The job that processes stored events, in order (src/engine/tasks.ts). */
export const PROCESS_EVENT_TASK = 'event.process';

/**
 * Its payload: events of one workspace, one item per event, a batch job (see JobSpec.batch): the
 * events of webhooks that arrive while the job waits join it. Jobs stored before batching carry
 * one request's events (`eventIds`) or a single one (`eventId`).
 */
export type ProcessEventsPayload = ProcessEventsItem[] | ({ workspaceId: number } & ({ eventIds: number[] } | { eventId: number }));
export interface ProcessEventsItem {
  workspaceId: number;
  eventId: number;
}

/** Events per event job at most: a backlog is processed by jobs of this size, in transactions of up to 20 events. */
export const EVENTS_PER_JOB = 200;

export interface IngestDeps {
  db: Executor;
  queue: JobQueue;
  /** Where a webhook's dropped changes are reported. */
  logger?: Logger;
  /** The channel adapter's name: dev events are for the sandbox only. */
  adapter?: 'sandbox' | 'http';
}

/**
 * Stores each event for every inbox connected to its account and enqueues its processing, all in
 * one transaction: once the caller acknowledges, every event is in the database with its job, and
 * a crash before the commit leaves nothing (the network redelivers). A redelivered event (same
 * inbox, kind and network id) inserts nothing and enqueues nothing, so it is processed once.
 */
async function store(
  deps: IngestDeps,
  channel: Channel,
  source: 'webhook' | 'dev',
  events: AccountEvent[],
  inboxes: EventInbox[],
  skipped: { ignored: number; invalid: number },
  before?: (trx: Executor) => Promise<void>,
): Promise<IngestResult> {
  const { ignored, invalid } = skipped;
  const byAccount = new Map<string, EventInbox[]>();
  for (const inbox of inboxes) byAccount.set(inbox.sourceId, [...(byAccount.get(inbox.sourceId) ?? []), inbox]);
  const result: IngestResult = { received: events.length + ignored + invalid, stored: 0, duplicates: 0, unknownAccounts: 0, ignored, invalid, eventIds: [] };
  await deps.db.transaction().execute(async (trx) => {
    await before?.(trx);
    const copies: { inbox: EventInbox; event: ChannelEvent }[] = [];
    for (const { accountId, event } of events) {
      const targets = byAccount.get(accountId);
      if (!targets) result.unknownAccounts++;
      else for (const inbox of targets) copies.push({ inbox, event });
    }
    const stored = new Map<number, number[]>();
    const ids = await insertChannelEvents(trx, copies, source);
    copies.forEach(({ inbox }, i) => {
      const id = ids[i];
      if (id == null) {
        result.duplicates++;
        return;
      }
      const ofWorkspace = stored.get(inbox.workspaceId);
      if (ofWorkspace) ofWorkspace.push(id);
      else stored.set(inbox.workspaceId, [id]);
      result.stored++;
      result.eventIds.push(String(id));
    });
    // One batch job per workspace: the events join the workspace's waiting event job, if any. A
    // job per event, or per request, spent more on the queue than on the events while the engine
    // was behind (bench/engine.ts). A delivery of more events than a job holds makes several.
    for (const [workspaceId, eventIds] of stored) {
      for (let i = 0; i < eventIds.length; i += EVENTS_PER_JOB) {
        const payload = eventIds.slice(i, i + EVENTS_PER_JOB).map((eventId) => ({ workspaceId, eventId }) satisfies ProcessEventsItem);
        await deps.queue.enqueue(trx, { task: PROCESS_EVENT_TASK, payload: payload as unknown as JsonValue, batch: { key: `events:${workspaceId}`, max: EVENTS_PER_JOB } });
      }
    }
  });
  // Counted after the commit: a rolled-back batch counted nothing.
  for (const outcome of ['stored', 'duplicates', 'unknownAccounts', 'ignored', 'invalid'] as const) {
    if (result[outcome] > 0) channelEvents.inc({ channel, source, outcome: outcome === 'duplicates' ? 'duplicate' : outcome === 'unknownAccounts' ? 'unknownAccount' : outcome }, result[outcome]);
  }
  return result;
}

/** A verified webhook body: events of accounts no workspace connected are acknowledged and only counted. */
export async function ingestWebhook(deps: IngestDeps, channel: Channel, body: WebhookBody): Promise<IngestResult> {
  if (body.object !== webhookObject[channel]) {
    throw new AppError('invalidRequestData', { data: { issues: [{ message: `This webhook takes object "${webhookObject[channel]}"`, path: ['object'] }] } });
  }
  const { events, ignored, invalid } = normaliseEntries(channel, body.entry, new Date(), { strict: false });
  if (invalid.length > 0) deps.logger?.warn({ channel, issues: invalid.slice(0, 10) }, `webhook: ${invalid.length} change(s) without the shape we read were acknowledged and dropped`);
  const inboxes = await findInboxesByAccount(deps.db, channel, [...new Set(events.map((e) => e.accountId))]);
  return store(deps, channel, 'webhook', events, inboxes, { ignored, invalid: invalid.length });
}

/**
 * Dev events (developmentMode workspaces): the same entries, for this workspace's inboxes only. An
 * entry naming an account none of its inboxes has is 422 (a typo, not someone else's account to
 * count). Leads and profiles given with them are what the sandbox adapter answers fetches with;
 * they are stored in the events' transaction.
 */
export async function injectDevEvents(deps: IngestDeps, workspaceId: number, input: DevEventsInput): Promise<IngestResult> {
  const workspace = await findWorkspace(deps.db, workspaceId);
  if (!workspace?.developmentMode) throw new AppError('FORBIDDEN', { data: { reason: 'Dev events are for workspaces in developmentMode; this workspace is not' } });
  // Made-up events must not make a real network act (with the server's token) nor take the ids
  // the network's own webhooks will carry.
  if (deps.adapter === 'http') throw new AppError('FORBIDDEN', { data: { reason: 'Dev events run on the sandbox adapter only; this server talks to the networks (CHANNEL_ADAPTER=http)' } });
  const { events, ignored } = normaliseEntries(input.channel, input.entry);
  const accounts = [...new Set(input.entry.map((e) => e.id))];
  const inboxes = await findInboxesByAccount(deps.db, input.channel, accounts, workspaceId);
  const unknown = accounts.filter((a) => !inboxes.some((i) => i.sourceId === a));
  // An entry's id is an inbox's sourceId.
  if (unknown.length > 0) throw unknownReferences('entry', unknown);
  return store(deps, input.channel, 'dev', events, inboxes, { ignored, invalid: 0 }, async (trx) => {
    for (const { id, ...lead } of input.leads ?? []) {
      await upsertSandboxRecord(trx, workspaceId, 'lead', id, { createdAt: lead.createdAt ?? new Date().toISOString(), formId: lead.formId ?? null, adId: lead.adId ?? null, fields: lead.fields });
    }
    for (const { id, ...profile } of input.profiles ?? []) {
      await upsertSandboxRecord(trx, workspaceId, 'profile', id, {
        firstName: profile.firstName ?? null,
        lastName: profile.lastName ?? null,
        name: profile.name ?? null,
        username: profile.username ?? null,
        avatarUrl: profile.avatarUrl ?? null,
      });
    }
  });
}
