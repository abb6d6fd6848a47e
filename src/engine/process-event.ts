import { findChannelEvent, markChannelEventProcessed, type StoredEvent } from '../domain/events/channel-event.repository.js';
import type { ChannelEventKind } from '../domain/events/channel-event.schema.js';
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

/**
 * Processes the job's events one after the other. An event already marked processed is skipped:
 * its processor committed everything it does (follow-up jobs included) before the mark, so a job
 * run again after its worker died resumes at the first event left.
 */
export function processEventTask(processors: Partial<Record<ChannelEventKind, EventProcessor>>) {
  return async (deps: EngineDeps, payload: ProcessEventsPayload, helpers: JobHelpers): Promise<void> => {
    const ids = 'eventIds' in payload ? payload.eventIds : [payload.eventId];
    for (const id of ids) {
      const stored = await findChannelEvent(deps.db, payload.workspaceId, id);
      // Deleted with its workspace or inbox since: nothing left to act for.
      if (!stored || stored.processedAt !== null) continue;
      const processor = processors[stored.event.kind];
      const outcome = processor ? await processor(deps, stored, helpers) : `no processor for ${stored.event.kind} events`;
      await markChannelEventProcessed(deps.db, stored.workspaceId, stored.id, outcome);
    }
  };
}
