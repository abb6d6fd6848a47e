import { findChannelEvents, markChannelEventProcessed, type StoredEvent } from '../domain/events/channel-event.repository.js';
import type { ChannelEventKind } from '../domain/events/channel-event.schema.js';
import { isPostgres, withSavepoint } from '../db/database.js';
import type { JobHelpers } from '../queue/types.js';
import type { ProcessEventsPayload } from '../domain/events/channel-event.service.js';
import type { EngineDeps } from './context.js';

/**
 * Processes one stored event by its kind. A processor must be safe to run again for the same event
 * (a job whose worker died is run again): it records what it did in rows keyed by the event's
 * network ids, and enqueues follow-up jobs under keys, so a second run finds its work done.
 * It answers a short outcome, stored on the event.
 */
export type EventProcessor = (deps: EngineDeps, stored: StoredEvent, helpers: JobHelpers) => Promise<string>;

/** Events per transaction: enough to share a commit, few enough not to stall API writes meanwhile (bench/README.md). */
const EVENTS_PER_TRANSACTION = 20;

/**
 * Processes the job's events one after the other. An event already marked processed is skipped:
 * its processor committed everything it does (follow-up jobs included) before the mark, so a job
 * run again after its worker died resumes at the first event left.
 *
 * On SQLite with the sandbox adapter the job runs in transactions of up to 20 events, and actions
 * due at once (an immediate reply, a like, a hide) run inside them rather than as jobs: SQLite runs
 * one writer at a time anyway, and its cost is per commit (WAL page writes), so ten events with
 * their replies in one commit instead of about eighty is most of the engine's SQLite throughput
 * (bench/engine.ts).
 * Each event has a savepoint: one that fails is rolled back alone, the others commit, and the job
 * is retried for it. PostgreSQL and network adapters keep a transaction per step: row locks held
 * across a batch would serialise workers, and a network call must never hold a transaction open.
 */
export function processEventTask(processors: Partial<Record<ChannelEventKind, EventProcessor>>) {
  const processOne = async (deps: EngineDeps, stored: StoredEvent | undefined, helpers: JobHelpers) => {
    // Deleted with its workspace or inbox since, or done by an earlier try: nothing left to do.
    if (!stored || stored.processedAt !== null) return;
    const processor = processors[stored.event.kind];
    const outcome = processor ? await processor(deps, stored, helpers) : `no processor for ${stored.event.kind} events`;
    await markChannelEventProcessed(deps.db, stored.workspaceId, stored.id, outcome);
  };

  return async (deps: EngineDeps, payload: ProcessEventsPayload, helpers: JobHelpers): Promise<void> => {
    const { workspaceId, ids } = eventsOf(payload);
    const joinTransaction = deps.adapter.joinTransaction;
    // One event that fails must not hold back the others of its delivery: they are processed, and
    // the job is retried for it (the ones done are skipped then).
    let failure: unknown = null;
    const each = async (d: EngineDeps, some: number[], step: (run: () => Promise<void>) => Promise<void>) => {
      // Read together (in the transaction that processes them, on SQLite): one statement, not one per event.
      const events = await findChannelEvents(d.db, workspaceId, some);
      for (const id of some) {
        try {
          await step(() => processOne(d, events.get(id), helpers));
        } catch (err) {
          failure ??= err;
        }
      }
    };
    if (!joinTransaction || isPostgres(deps.db)) {
      for (let i = 0; i < ids.length; i += EVENTS_PER_TRANSACTION) await each(deps, ids.slice(i, i + EVENTS_PER_TRANSACTION), (run) => run());
    } else {
      // At most EVENTS_PER_TRANSACTION events per commit: a network may deliver hundreds in one
      // request, and SQLite's one writer would keep every API write waiting behind them.
      for (let i = 0; i < ids.length; i += EVENTS_PER_TRANSACTION) {
        await deps.db.transaction().execute((trx) =>
          each({ ...deps, db: trx, adapter: joinTransaction(trx), inline: true }, ids.slice(i, i + EVENTS_PER_TRANSACTION), (run) => withSavepoint(trx, run)),
        );
      }
    }
    if (failure !== null) throw failure;
  };
}

/** The workspace and events of a job, in order; a batch job's items share their workspace (its batch key). */
function eventsOf(payload: ProcessEventsPayload): { workspaceId: number; ids: number[] } {
  if (Array.isArray(payload)) return { workspaceId: payload[0]?.workspaceId ?? 0, ids: payload.map((item) => item.eventId) };
  return { workspaceId: payload.workspaceId, ids: 'eventIds' in payload ? payload.eventIds : [payload.eventId] };
}
