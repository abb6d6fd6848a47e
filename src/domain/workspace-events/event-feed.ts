import { isPostgres, type Executor } from '../../db/database.js';
import { AppError } from '../../errors/catalogue.js';
import type { Logger } from '../../observability/logger.js';
import { liveTokenIds } from '../auth/api-token.repository.js';
import { eventsAfter, latestEventId, type StoredEvent } from './workspace-event.repository.js';
import { eventTypes, type EventType } from './workspace-event.schema.js';

/**
 * Live streams of a workspace's events for this process (GraphQL `Subscription.events`), read from
 * the events table, so that events recorded by any process (another server, `npm run worker`)
 * reach them.
 *
 * One reader per workspace serves all of that workspace's streams: each read is one statement
 * from the lowest cursor among them (at most READ_BATCH events, of every type), and each stream
 * takes what is past its own cursor and of its types. Reads happen every `pollMs` (one timer for
 * the process, which also re-checks every open stream's token in one statement), at once when
 * events of the workspace are recorded (`wake`: in this process through `eventsRecorded`, in
 * another through Redis), and shortly again after a wake-up that found nothing, since that hint
 * can come before the recording transaction commits.
 *
 * Ids that commit out of order (PostgreSQL): a transaction can take id 10, and commit after
 * another took 11 and committed, so a reader already past 11 would never see 10. On PostgreSQL
 * every read therefore starts below the cursors, at the highest id known to have settled: an id
 * whose event occurred more than `lateCommitWindowMs` ago (every id below it was taken before it,
 * by transactions that have ended since, as no transaction that records events runs that long).
 * Ids read in that window are remembered and skipped; one found there for the first time is
 * delivered late, to each stream that began below it (it may arrive after higher ids: `after` and
 * clients key on the id). SQLite has one writer, so its ids commit in order and it reads from the
 * cursors alone.
 */

/** Events one read takes at most; a full batch is followed by the next read at once. */
export const READ_BATCH = 100;
/**
 * After a wake-up that found nothing (the recording transaction had not committed yet): look again
 * after these times from the wake-up, then leave it to the poll. The last one is for a poll that
 * is slow (EVENTS_POLL_MS up to a minute) and a commit that is too.
 */
const RECHECKS_MS = [25, 100, 400, 1_600];
/** Events a stream holds for a client that reads slowly; past it the stream stops taking (its cursor waits). */
const BUFFERED = 500;
/** PostgreSQL: how long an id may stay uncommitted behind higher ones and still be delivered. */
export const LATE_COMMIT_WINDOW_MS = 5_000;
/** What streams carry: a webhook's test `ping` is stored as an event too, for that webhook alone. */
const streamedTypes: ReadonlySet<string> = new Set(eventTypes);
/** Ids beyond a 32-bit key cannot exist: `after` past it waits for nothing older. */
const MAX_ID = 2_147_483_647;

export interface EventFeedOptions {
  db: Executor;
  pollMs: number;
  /** Open streams per workspace in this process; one more is refused (429). */
  perWorkspace: number;
  logger: Logger;
  /** 0: ids commit in order (SQLite). Default: LATE_COMMIT_WINDOW_MS on PostgreSQL, 0 on SQLite. */
  lateCommitWindowMs?: number;
}

/** Who opens a stream: its workspace, and the token whose revocation ends it. */
export interface StreamOwner {
  workspaceId: number;
  tokenId: number;
}

export interface StreamOptions {
  /** Only these types; null or empty: every type. */
  types?: readonly EventType[] | null;
  /** Replay the events after this id first; null: start at the newest event (nothing old). */
  after?: number | null;
}

/** What a stream yields: events, then, when the server ended it, the error that says why. */
export type StreamItem = StoredEvent | AppError;

const tooManyStreams = (limit: number) => new AppError('tooManyRequests', { data: { budget: 'subscriptions', limit } });
const tokenRevoked = () => new AppError('INVALID_CHATBOT_TOKEN');
const shuttingDown = () =>
  new AppError('serviceUnavailable', {
    message: 'The server is shutting down: subscribe again, with `after` set to the last event id you received, to go on from there',
  });

export class EventFeeds {
  readonly db: Executor;
  readonly logger: Logger;
  readonly lateCommitWindowMs: number;
  /** What polling costs, for metrics and tests: timer ticks, reads of the table, token checks. */
  readonly counts = { ticks: 0, reads: 0, tokenChecks: 0 };
  readonly #pollMs: number;
  readonly #perWorkspace: number;
  readonly #feeds = new Map<number, WorkspaceFeed>();
  #timer: NodeJS.Timeout | null = null;
  #draining = false;

  constructor(o: EventFeedOptions) {
    this.db = o.db;
    this.logger = o.logger;
    this.#pollMs = o.pollMs;
    this.#perWorkspace = o.perWorkspace;
    this.lateCommitWindowMs = o.lateCommitWindowMs ?? (isPostgres(o.db) ? LATE_COMMIT_WINDOW_MS : 0);
  }

  /** Open streams of a workspace (every workspace when none is given). */
  openStreams(workspaceId?: number): number {
    if (workspaceId !== undefined) return this.#feeds.get(workspaceId)?.streams.size ?? 0;
    let n = 0;
    for (const feed of this.#feeds.values()) n += feed.streams.size;
    return n;
  }

  /**
   * A new stream of the owner's workspace: 429 tooManyRequests past `perWorkspace` open ones, 503
   * serviceUnavailable once the process is shutting down. Its place under the limit is taken
   * before anything is awaited, so concurrent opens cannot overshoot it.
   */
  async open(owner: StreamOwner, options: StreamOptions = {}): Promise<EventStream> {
    if (this.#draining) throw shuttingDown();
    let feed = this.#feeds.get(owner.workspaceId);
    if (feed && feed.streams.size >= this.#perWorkspace) throw tooManyStreams(this.#perWorkspace);
    if (!feed) {
      feed = new WorkspaceFeed(this, owner.workspaceId);
      this.#feeds.set(owner.workspaceId, feed);
    }
    const types = options.types && options.types.length > 0 ? new Set<string>(options.types) : null;
    const stream = new EventStream(feed, owner.tokenId, types);
    feed.streams.add(stream);
    try {
      const after = options.after ?? null;
      feed.start(stream, after === null ? await latestEventId(this.db, owner.workspaceId) : Math.min(after, MAX_ID));
    } catch (err) {
      await stream.return();
      throw err;
    }
    this.#schedule();
    // A replay starts now, not at the next tick.
    if (options.after != null) feed.wake();
    return stream;
  }

  /** Events of the workspace were recorded (here, or in another process): its streams read now. */
  wake(workspaceId: number): void {
    this.#feeds.get(workspaceId)?.wake();
  }

  /** Shutdown begins: every stream ends (saying why), and new ones are refused. */
  drain(): void {
    this.#draining = true;
    for (const feed of [...this.#feeds.values()]) for (const stream of [...feed.streams]) stream.end(shuttingDown());
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** @internal A feed without streams is forgotten. */
  forget(feed: WorkspaceFeed): void {
    if (this.#feeds.get(feed.workspaceId) === feed) this.#feeds.delete(feed.workspaceId);
  }

  #schedule(): void {
    if (this.#timer || this.#draining || this.#feeds.size === 0) return;
    this.#timer = setTimeout(() => {
      void this.#tick().finally(() => {
        this.#timer = null;
        this.#schedule();
      });
    }, this.#pollMs);
    this.#timer.unref();
  }

  /** Every open stream's token in one statement (revoked: the stream ends), then one read per workspace. */
  async #tick(): Promise<void> {
    const streams = [...this.#feeds.values()].flatMap((feed) => [...feed.streams]);
    if (streams.length > 0) {
      try {
        const live = await liveTokenIds(this.db, [...new Set(streams.map((s) => s.tokenId))]);
        this.counts.tokenChecks++;
        for (const stream of streams) if (!live.has(stream.tokenId)) stream.end(tokenRevoked());
      } catch (err) {
        this.logger.warn({ err }, 'checking the tokens of open event subscriptions failed; trying again at the next poll');
      }
    }
    await Promise.all([...this.#feeds.values()].map((feed) => feed.read()));
    this.counts.ticks++;
  }
}

/** The reader of one workspace's events for all of its streams in this process. */
class WorkspaceFeed {
  readonly streams = new Set<EventStream>();
  /** The highest id read. */
  #frontier = 0;
  /** With a late-commit window: ids up to here have settled; above it every read looks again. */
  #settled = 0;
  /** Ids above `#settled` read already (delivered to whoever wanted them). */
  readonly #seen = new Set<number>();
  #begun = false;
  #reading: Promise<boolean> | null = null;
  #again = false;
  #recheck: NodeJS.Timeout | null = null;

  constructor(
    readonly hub: EventFeeds,
    readonly workspaceId: number,
  ) {}

  /** A stream knows where it starts; the first one sets where the feed starts. */
  start(stream: EventStream, cursor: number): void {
    stream.begin(cursor);
    if (!this.#begun) {
      this.#begun = true;
      this.#frontier = cursor;
      this.#settled = cursor;
    }
  }

  remove(stream: EventStream): void {
    this.streams.delete(stream);
    if (this.streams.size > 0) return;
    if (this.#recheck) clearTimeout(this.#recheck);
    this.#recheck = null;
    this.hub.forget(this);
  }

  /** Reads now; when that finds nothing new, again after each of RECHECKS_MS. */
  wake(): void {
    if (this.#recheck) clearTimeout(this.#recheck);
    this.#recheck = null;
    this.#readThenRecheck(0);
  }

  #readThenRecheck(step: number): void {
    void this.read().then((found) => {
      if (found || step >= RECHECKS_MS.length || this.streams.size === 0) return;
      this.#recheck = setTimeout(() => {
        this.#recheck = null;
        this.#readThenRecheck(step + 1);
      }, RECHECKS_MS[step]! - (RECHECKS_MS[step - 1] ?? 0));
      this.#recheck.unref();
    });
  }

  /**
   * Reads until it has caught up; one read at a time (a call during a read makes it read once
   * more, and shares its answer). Answers whether anything new was found. Never throws: a failed
   * read is logged and the next poll tries again.
   */
  read(): Promise<boolean> {
    if (this.#reading) {
      this.#again = true;
      return this.#reading;
    }
    this.#reading = (async () => {
      let found = false;
      do {
        this.#again = false;
        try {
          found = (await this.#readAll()) || found;
        } catch (err) {
          this.hub.logger.warn({ err, workspaceId: this.workspaceId }, 'reading workspace events for subscriptions failed; trying again at the next poll');
          return found;
        }
      } while (this.#again);
      return found;
    })().finally(() => {
      this.#reading = null;
    });
    return this.#reading;
  }

  async #readAll(): Promise<boolean> {
    const { db } = this.hub;
    const window = this.hub.lateCommitWindowMs;
    const now = Date.now();
    let found = false;
    // Where the window of ids not yet settled begins; after a full batch, where the next page does.
    let page = window > 0 ? this.#settled : Infinity;
    for (;;) {
      const active = [...this.streams].filter((s) => s.takes());
      if (active.length === 0) break;
      const from = Math.min(page, ...active.map((s) => s.cursor));
      // Every type: each stream filters its own, and a read that sees the ids move knows the
      // recording transaction committed (a wake-up then needs no second look).
      const batch = await eventsAfter(db, this.workspaceId, from, { limit: READ_BATCH });
      this.hub.counts.reads++;
      let settles = this.#settled;
      for (const event of batch) {
        const id = Number(event.id);
        const late = window > 0 && id > this.#settled && id <= this.#frontier && !this.#seen.has(id);
        for (const stream of active) stream.offer(event, id, late);
        if (late || id > this.#frontier) found = true;
        if (id > this.#frontier) this.#frontier = id;
        if (window > 0 && id > this.#settled) {
          this.#seen.add(id);
          if (now - new Date(event.occurredAt).getTime() >= window) settles = Math.max(settles, id);
        }
      }
      const last = batch.length > 0 ? Number(batch[batch.length - 1]!.id) : from;
      for (const stream of active) stream.reach(last);
      page = last;
      if (settles > this.#settled) {
        this.#settled = settles;
        for (const id of this.#seen) if (id <= settles) this.#seen.delete(id);
      }
      if (batch.length < READ_BATCH) break;
    }
    return found;
  }
}

/**
 * One subscriber's stream: an async iterator of its events, oldest first, ending when the client
 * leaves (`return`) or the server ends it (`end`: the reason is yielded last). Its `return`
 * answers at once, even while `next` waits for an event, so a client that leaves frees its place
 * under the limit straight away.
 */
export class EventStream implements AsyncIterableIterator<StreamItem> {
  /** Events up to here were offered to it (set when it starts). */
  cursor = 0;
  /** Where it started: events that commit late count for it only above this. */
  #from = 0;
  #started = false;
  #stalled = false;
  readonly #queue: StoredEvent[] = [];
  #end: AppError | null = null;
  #endSent = false;
  #closed = false;
  #waiting: (() => void) | null = null;

  constructor(
    private readonly feed: WorkspaceFeed,
    readonly tokenId: number,
    readonly types: ReadonlySet<string> | null,
  ) {}

  begin(cursor: number): void {
    this.cursor = cursor;
    this.#from = cursor;
    this.#started = true;
  }

  /** Whether the next read should offer it events: started, open, and room in its buffer. */
  takes(): boolean {
    return this.#started && !this.#closed && this.#end === null && this.#queue.length < BUFFERED;
  }

  /**
   * An event of the workspace: taken when it is past the cursor (or committed late above where the
   * stream began) and of its types. A full buffer stops it taking for the rest of the read.
   */
  offer(event: StoredEvent, id: number, late: boolean): void {
    if (this.#stalled) return;
    const wanted = this.types === null ? streamedTypes.has(event.type) : this.types.has(event.type);
    if (id > this.cursor) {
      if (wanted) {
        if (this.#queue.length >= BUFFERED) {
          this.#stalled = true;
          return;
        }
        this.#push(event);
      }
      this.cursor = id;
    } else if (late && wanted && id > this.#from) {
      this.#push(event);
    }
  }

  /** The read covered every event up to `last`: the cursor moves there unless the buffer filled. */
  reach(last: number): void {
    if (!this.#stalled && last > this.cursor) this.cursor = last;
    this.#stalled = false;
  }

  /** The server ends the stream: events not sent yet are dropped (a new subscription with `after` gets them). */
  end(reason: AppError): void {
    if (this.#closed || this.#end) return;
    this.#end = reason;
    this.#queue.length = 0;
    this.#wakeConsumer();
  }

  #push(event: StoredEvent): void {
    this.#queue.push(event);
    this.#wakeConsumer();
  }

  #wakeConsumer(): void {
    const waiting = this.#waiting;
    this.#waiting = null;
    waiting?.();
  }

  async next(): Promise<IteratorResult<StreamItem>> {
    for (;;) {
      if (this.#closed) return { value: undefined, done: true };
      const event = this.#queue.shift();
      if (event) {
        // Half the buffer drained after it filled: read what it stopped taking.
        if (this.#queue.length === BUFFERED / 2) this.feed.wake();
        return { value: event, done: false };
      }
      if (this.#end) {
        if (this.#endSent) return this.return();
        this.#endSent = true;
        return { value: this.#end, done: false };
      }
      await new Promise<void>((resolve) => (this.#waiting = resolve));
    }
  }

  async return(): Promise<IteratorResult<StreamItem>> {
    if (!this.#closed) {
      this.#closed = true;
      this.#queue.length = 0;
      this.feed.remove(this);
      this.#wakeConsumer();
    }
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

export const createEventFeeds = (o: EventFeedOptions) => new EventFeeds(o);
