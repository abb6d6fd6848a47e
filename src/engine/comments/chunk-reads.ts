import type { Executor } from '../../db/database.js';
import { findContactsOfSources, type SourceContact } from '../../domain/contacts/contact.repository.js';
import type { EventInbox, StoredEvent } from '../../domain/events/channel-event.repository.js';
import type { CommentEvent } from '../../domain/events/channel-event.schema.js';
import { countInboxesOfAccount } from '../../domain/inboxes/inbox.repository.js';

/**
 * What the first try of a chunk (process-event.ts, `inline: 'chunk'`) reads once for its comment
 * events rather than once for each: on PostgreSQL every statement is a round trip,
 * and an answered comment costs about a dozen (bench/README.md, "Why the engine misses").
 *
 * - The commenters' contacts: the first comment that needs one reads those of every comment of
 *   the chunk through the same inbox, in one statement. A contact the chunk links meanwhile is
 *   noted, so the same person's next comment finds it.
 * - Whether a comment can have been judged before: a comment event is marked processed in the
 *   transaction that records its judgements, so a comment not yet marked has no rows of its own.
 *   Rows for the same comment can only come from another stored event of it, which needs another
 *   inbox of the workspace on the same account (nothing in the schema forbids two). Without one,
 *   the per-comment record check (comment-engine.ts) has nothing to find.
 *
 * Another kind of event in the chunk (a message, a thread handover) may link a contact or hand
 * its thread over: the contacts read so far are dropped, and read again when next needed.
 */
export class CommentChunkReads {
  private readonly contacts = new Map<string, SourceContact | null>();
  private readonly sharedAccounts = new Map<number, Promise<boolean>>();
  /** The chunk's comments not processed when it began: their authors are read together. */
  private readonly comments: StoredEvent[];

  constructor(events: Iterable<StoredEvent>) {
    this.comments = [...events].filter((e) => e.event.kind === 'comment' && e.processedAt === null);
  }

  /** Called before each event of the chunk is processed. */
  seen(stored: StoredEvent): void {
    if (stored.event.kind !== 'comment') this.contacts.clear();
  }

  /** True when another inbox of the workspace has this inbox's account (then the record check is needed). */
  accountShared(db: Executor, inbox: EventInbox): Promise<boolean> {
    let shared = this.sharedAccounts.get(inbox.id);
    if (!shared) this.sharedAccounts.set(inbox.id, (shared = countInboxesOfAccount(db, inbox.workspaceId, inbox.channel, inbox.sourceId).then((n) => n > 1)));
    return shared;
  }

  /** The contact linked to this person in the inbox (null: nobody yet), read with the chunk's other commenters. */
  async contactOf(db: Executor, inbox: EventInbox, sourceId: string): Promise<SourceContact | null> {
    const key = keyOf(inbox.id, sourceId);
    if (!this.contacts.has(key)) {
      const authors = new Set([sourceId]);
      for (const e of this.comments) if (e.inbox.id === inbox.id) authors.add((e.event as CommentEvent).authorId);
      const wanted = [...authors].filter((a) => !this.contacts.has(keyOf(inbox.id, a)));
      const found = await findContactsOfSources(db, inbox.workspaceId, inbox.id, wanted);
      for (const a of wanted) this.contacts.set(keyOf(inbox.id, a), found.get(a) ?? null);
    }
    return this.contacts.get(key)!;
  }

  /** The contact the chunk has linked to this person (a new one, or a new conversation of a known one). */
  linked(inbox: EventInbox, sourceId: string, contact: SourceContact): void {
    this.contacts.set(keyOf(inbox.id, sourceId), contact);
  }
}

const keyOf = (inboxId: number, sourceId: string) => `${inboxId}:${sourceId}`;
