import { useContext, useEffect, useState } from 'react';
import { useClient } from 'urql';
import { onEnd, pipe, subscribe } from 'wonka';
import { graphql } from '../gql';
import type { LiveEventsSubscription } from '../gql/graphql';
import { describeProblem, problemOf } from '../errors';
import { LiveEventsContext } from './live-events';

const LiveEventsDocument = graphql(`
  subscription LiveEvents($types: [EventType!], $after: ID) {
    events(types: $types, after: $after) {
      id
      type
      occurredAt
      data
      contact {
        id
        rawId
        fullName
      }
    }
  }
`);

type Event = LiveEventsSubscription['events'];

/** The types the strip shows: what a person watching an inbox cares about. */
const types = ['newContact', 'messageReceived', 'messageSent', 'tagApplied', 'tagRemoved', 'customFieldValueChanged', 'contactInfoUpdated'] as const;

/** A message's text, cut to fit the strip. */
const quote = (data: unknown) => {
  const text = field(data, 'text');
  if (!text) return 'an attachment';
  return `“${text.length > 60 ? `${text.slice(0, 59)}…` : text}”`;
};
const KEEP = 6;

const field = (data: unknown, key: string): string => {
  const value = (data as Record<string, unknown> | null)?.[key];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
};

function describe(event: Event): string {
  const who = event.contact?.fullName || `contact ${field(event.data, 'contact_id')}`;
  switch (event.type) {
    case 'newContact':
      return `New contact: ${who}`;
    case 'messageReceived':
      return `${who} wrote ${quote(event.data)}`;
    case 'messageSent':
      return `To ${who}: ${quote(event.data)}`;
    case 'tagApplied':
      return `${who}: tag “${field(event.data, 'tag')}” applied`;
    case 'tagRemoved':
      return `${who}: tag “${field(event.data, 'tag')}” removed`;
    case 'customFieldValueChanged': {
      const changed = (event.data as { custom_field?: { name?: string } } | null)?.custom_field?.name ?? 'a field';
      return `${who}: ${changed} changed`;
    }
    default:
      return `${who}: ${field(event.data, 'info_type') || 'details'} updated`;
  }
}

/** Waits between reconnection attempts: quick at first, then every few seconds. */
const retryDelay = (failures: number) => Math.min(500 * 2 ** failures, 5_000);

/**
 * A live strip of the workspace's newest events, from the moment the page opened (one SSE stream
 * for the whole app). Each event is also handed to the views, which re-read what it touches.
 * When the stream ends (a server restart, a dropped connection) it opens again with `after` the
 * last event received, so the events in between are replayed, not lost; a 4xx (the token
 * refused or lacking a scope) is final and shown.
 */
export function EventStrip() {
  const client = useClient();
  const live = useContext(LiveEventsContext);
  const [events, setEvents] = useState<Event[]>([]);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    let after: string | null = null;
    let failures = 0;
    let closed = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stream: { unsubscribe: () => void } | undefined;

    const open = () => {
      let final = false;
      stream = pipe(
        client.subscription(LiveEventsDocument, { types: [...types], after }),
        onEnd(() => {
          if (closed || final) return;
          timer = setTimeout(open, retryDelay(failures++));
        }),
        subscribe((result) => {
          if (result.error) {
            const found = problemOf(result.error);
            final = found.status !== undefined && found.status >= 400 && found.status < 500;
            setProblem(final ? `Live updates stopped: ${describeProblem(found)}` : 'Live updates paused: reconnecting…');
            return;
          }
          const event = result.data?.events;
          if (!event) return;
          failures = 0;
          after = event.id;
          setProblem(null);
          setEvents((previous) => [event, ...previous.filter((e) => e.id !== event.id)].slice(0, KEEP));
          live.emit({ id: event.id, type: event.type, contactId: event.contact?.rawId ?? (field(event.data, 'contact_id') || null) });
        }),
      );
    };
    open();
    return () => {
      closed = true;
      clearTimeout(timer);
      stream?.unsubscribe();
    };
  }, [client, live]);

  return (
    <section className="events" aria-labelledby="events-title">
      <h2 id="events-title">Live</h2>
      {problem ? (
        <p className="events-problem" role="status">
          {problem}
        </p>
      ) : null}
      <ol aria-live="polite">
        {events.length === 0 ? <li className="muted">New contacts, messages and tag changes appear here as they happen.</li> : null}
        {events.map((event) => (
          <li key={event.id}>
            <time dateTime={event.occurredAt}>{new Date(event.occurredAt).toLocaleTimeString()}</time>{' '}
            {event.contact ? <a href={`#/contacts/${event.contact.rawId}`}>{describe(event)}</a> : describe(event)}
          </li>
        ))}
      </ol>
    </section>
  );
}
