import { createContext, useContext, useEffect, useRef } from 'react';

/**
 * Events from the API's `Subscription.events`, handed to whichever view shows what they are about,
 * so that it re-reads it: a tag added over REST shows in the open page without a reload.
 */
export interface LiveEvent {
  id: string;
  type: string;
  contactId: string | null;
}

type Listener = (event: LiveEvent) => void;

export class LiveEvents {
  private listeners = new Set<Listener>();
  listen(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  emit(event: LiveEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}

export const LiveEventsContext = createContext(new LiveEvents());

/** Bursts (a bulk tag of 50 contacts) are one re-read, not fifty. */
const SETTLE_MS = 150;

/** Calls `refresh` (once per burst) after events `concerns` says are about what the view shows. */
export function useRefreshOn(concerns: (event: LiveEvent) => boolean, refresh: () => void): void {
  const events = useContext(LiveEventsContext);
  const latest = useRef({ concerns, refresh });
  latest.current = { concerns, refresh };
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = events.listen((event) => {
      if (!latest.current.concerns(event)) return;
      clearTimeout(timer);
      timer = setTimeout(() => latest.current.refresh(), SETTLE_MS);
    });
    return () => {
      stop();
      clearTimeout(timer);
    };
  }, [events]);
}
