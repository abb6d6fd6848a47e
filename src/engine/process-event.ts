import { findChannelEvents, markChannelEventProcessed, markChannelEventsProcessed, type StoredEvent } from '../domain/events/channel-event.repository.js';
import type { ChannelEventKind } from '../domain/events/channel-event.schema.js';
import type { Executor } from '../db/database.js';
import { holdWrites, releaseWrites } from '../db/held-writes.js';
import type { AutomationCache } from './comments/automation-cache.js';
import type { JobHelpers } from '../queue/types.js';
import type { ProcessEventsPayload } from '../domain/events/channel-event.service.js';
import type { EngineDeps } from './context.js';
import { CommentChunkReads } from './comments/chunk-reads.js';
import { CounterTally, withCountedSavepoint } from './comments/counter-tally.js';

/**
 * Processes one stored event by its kind. A processor must be safe to run again for the same event
 * (a job whose worker died is run again): it records what it did in rows keyed by the event's
 * network ids, and enqueues follow-up jobs under keys, so a second run finds its work done.
 * It answers a short outcome, stored on the event.
 */
export type EventProcessor = (deps: EngineDeps, stored: StoredEvent, helpers: JobHelpers) => Promise<string>;

type Outcome = { id: number; outcome: string };

/** Events per transaction: enough to share a commit, few enough not to stall API writes meanwhile (bench/README.md). */
const EVENTS_PER_TRANSACTION = 20;

/**
 * Processes the job's events one after the other. An event already marked processed is skipped:
 * its processor committed everything it does (follow-up jobs included) before the mark, so a job
 * run again after its worker died resumes at the first event left.
 *
 * With an adapter that writes in the caller's transaction (the sandbox), the job runs in
 * transactions of up to 20 events, and actions due at once (an immediate reply, a like, a hide) run
 * inside them rather than as jobs: a commit, and on PostgreSQL every statement's round trip and a
 * job's own statements, cost more than the work itself, so ten events with their replies in one
 * commit instead of about eighty is most of the engine's throughput (bench/engine.ts).
 * When an event fails, its chunk is undone and run again with a savepoint per event: the failing
 * one is rolled back alone, the others commit, and the job is retried for it. The rows several
 * jobs update, the automations' counters, are added up and written at the chunk's end, in id order
 * (counter-tally.ts).
 * A network adapter keeps a transaction per step: a network call must never hold a transaction
 * open.
 */
export function processEventTask(processors: Partial<Record<ChannelEventKind, EventProcessor>>) {
  /**
   * Runs the event's processor and hands its outcome to `done`, which records it at once or with
   * the rest of its chunk. Nothing is left to do for an event deleted with its workspace or inbox
   * since, or done by an earlier try.
   */
  const processOne = async (deps: EngineDeps, stored: StoredEvent | undefined, helpers: JobHelpers, done: (outcome: Outcome) => Promise<void> | void) => {
    if (!stored || stored.processedAt !== null) return;
    deps.chunkReads?.seen(stored);
    const processor = processors[stored.event.kind];
    const outcome = processor ? await processor(deps, stored, helpers) : `no processor for ${stored.event.kind} events`;
    await done({ id: stored.id, outcome });
  };
  const markNow = (db: Executor, workspaceId: number) => (o: Outcome) => markChannelEventProcessed(db, workspaceId, o.id, o.outcome);

  return async (deps: EngineDeps, payload: ProcessEventsPayload, helpers: JobHelpers): Promise<void> => {
    const { workspaceId, ids } = eventsOf(payload);
    const joinTransaction = deps.adapter.joinTransaction;
    // One event that fails must not hold back the others of its delivery: they are processed, and
    // the job is retried for it (the ones done are skipped then).
    let failure: unknown = null;
    // `together`: the chunk commits or fails as one, so the events are marked processed at its end,
    // in one statement; else each is marked as its step ends.
    const each = async (d: EngineDeps, some: number[], step: (run: () => Promise<void>) => Promise<void>, opts: { together?: boolean } = {}) => {
      // Read together (in the transaction that processes them): one statement, not one per event.
      const events = await findChannelEvents(d.db, workspaceId, some);
      // The chunk's first try reads its comments' contacts together (chunk-reads.ts).
      if (d.inline === 'chunk') d = { ...d, chunkReads: new CommentChunkReads(events.values()) };
      const outcomes: Outcome[] = [];
      const done = opts.together ? (o: Outcome) => void outcomes.push(o) : markNow(d.db, workspaceId);
      for (const id of some) {
        const stored = events.get(id);
        // The first try holds the writes its comments make and nothing in it reads back
        // (db/held-writes.ts); not with a savepoint per event, whose rollback would miss them.
        // Another kind of event writes as it always did, after what the comments held.
        if (d.inline === 'chunk' && stored?.event.kind === 'comment') holdWrites(d.db);
        else await releaseWrites(d.db);
        await step(() => processOne(d, stored, helpers, done));
      }
      await releaseWrites(d.db);
      await d.counters?.write(d.db);
      await markChannelEventsProcessed(d.db, workspaceId, outcomes);
    };
    // Each event on its own: one that fails is noted and the others go on.
    const isolated = (run: () => Promise<void>) =>
      run().catch((err: unknown) => {
        failure ??= err;
      });
    if (!joinTransaction) {
      for (let i = 0; i < ids.length; i += EVENTS_PER_TRANSACTION) await each(deps, ids.slice(i, i + EVENTS_PER_TRANSACTION), isolated);
    } else {
      // At most EVENTS_PER_TRANSACTION events per commit: a network may deliver hundreds in one
      // request, and SQLite's one writer would keep every API write waiting behind them.
      const inChunk = (trx: Executor, inline: NonNullable<EngineDeps['inline']>): EngineDeps => ({
        ...deps,
        db: trx,
        adapter: joinTransaction(trx),
        inline,
        automations: sameForTheChunk(deps.automations),
        counters: new CounterTally(workspaceId),
      });
      for (let i = 0; i < ids.length; i += EVENTS_PER_TRANSACTION) {
        const some = ids.slice(i, i + EVENTS_PER_TRANSACTION);
        // First without a savepoint per event or per immediate action (two round trips each on
        // PostgreSQL): any failure undoes the chunk, which is then run again with them, so that
        // only the failing event is left undone, and an action failing unexpectedly alone.
        try {
          await deps.db.transaction().execute((trx) => each(inChunk(trx, 'chunk'), some, (run) => run(), { together: true }));
        } catch {
          await deps.db.transaction().execute((trx) => {
            const d = inChunk(trx, 'savepoint');
            return each(d, some, (run) => isolated(() => withCountedSavepoint(d, run)));
          });
        }
      }
    }
    if (failure !== null) throw failure;
  };
}

/**
 * The automation sets a chunk's events are judged by, read once per chunk: its transaction sees no
 * change to them meanwhile, and each event would otherwise read the workspace's version again.
 */
function sameForTheChunk(cache: AutomationCache): AutomationCache {
  const read = new Map<string, ReturnType<AutomationCache['active']>>();
  return {
    active(db, workspaceId, channel) {
      const key = `${workspaceId}:${channel}`;
      let set = read.get(key);
      if (!set) read.set(key, (set = cache.active(db, workspaceId, channel)));
      return set;
    },
  };
}

/** The workspace and events of a job, in order; a batch job's items share their workspace (its batch key). */
function eventsOf(payload: ProcessEventsPayload): { workspaceId: number; ids: number[] } {
  if (Array.isArray(payload)) return { workspaceId: payload[0]?.workspaceId ?? 0, ids: payload.map((item) => item.eventId) };
  return { workspaceId: payload.workspaceId, ids: 'eventIds' in payload ? payload.eventIds : [payload.eventId] };
}
