import { AppError } from '../../errors/catalogue.js';
import { digitId } from '../../domain/shared/schemas.js';
import type { EventStream, StreamItem } from '../../domain/workspace-events/event-feed.js';
import type { StoredEvent } from '../../domain/workspace-events/workspace-event.repository.js';
import { eventTypes } from '../../domain/workspace-events/workspace-event.schema.js';
import { builder } from '../builder.js';
import type { GraphQLContext } from '../context.js';
import { contractEnum } from '../enums.js';
import { createLoaders } from '../loaders.js';
import { ContactRef } from './refs.js';

/**
 * The eighteen event types (the automation tool's sixteen conditions, and messageReceived and
 * messageSent of ours), one enum for webhook conditions and `Subscription.events(types:)`: a type
 * a webhook can wait for is one a stream can ask for.
 */
export const EventTypeEnum = contractEnum(
  'EventType',
  eventTypes,
  'What changed in the workspace. contactReferredANewContact and contactReferredExistingContact are accepted and never fire: this service has no referrals.',
);

export const WorkspaceEventType = builder.objectRef<StoredEvent>('WorkspaceEvent').implement({
  description: 'Something that changed in the workspace, as its webhooks are told of it',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The plain event id (ids grow); `events(after:)` takes the last one received to go on from there' }),
    type: t.expose('type', { type: EventTypeEnum }),
    occurredAt: t.expose('occurredAt', { type: 'DateTime' }),
    contact: t.field({
      type: ContactRef,
      nullable: true,
      description: 'The contact it is about, as it is now; null for an event without one or a contact deleted since',
      resolve: (e, _a, { loaders }) => (e.contactId === null ? null : loaders.contact.load(Number(e.contactId))),
    }),
    data: t.field({
      type: 'JSON',
      description: 'The body a webhook receives: `{event, contact_id, timestamp, ...}` and the fields of its type, snake_case',
      resolve: (e) => e.body,
    }),
  }),
});

/**
 * Each event resolves with loaders of its own, as a request would: the stream lives for hours,
 * and loaders kept from its first event would answer a contact as it was then.
 */
function withFreshLoaders(stream: EventStream, ctx: GraphQLContext): AsyncIterableIterator<StreamItem> {
  return {
    next: async () => {
      const item = await stream.next();
      if (!item.done) ctx.loaders = createLoaders(ctx.db, ctx.who.workspaceId);
      return item;
    },
    // Not an async generator: its return() would wait behind a pending next(), that is until the
    // next event, and a client that left would hold its place under the limit until then.
    return: () => stream.return(),
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

builder.subscriptionField('events', (t) =>
  t.field({
    type: WorkspaceEventType,
    description:
      "The workspace's events as they happen (served over SSE: send `Accept: text/event-stream`). Without `after` it starts at " +
      'the newest event (nothing old); with `after` it first replays every event with a higher id, then goes on live. ' +
      'At most SUBSCRIPTIONS_PER_WORKSPACE open per workspace and server process (one more is 429 tooManyRequests). ' +
      'It ends with an error when its token is revoked (INVALID_CHATBOT_TOKEN) or the server shuts down (serviceUnavailable: subscribe again with `after`).',
    access: { action: 'read', scope: 'webhooks' },
    args: {
      types: t.arg({ type: [EventTypeEnum], required: false, description: 'Only these types; every type when left out' }),
      after: t.arg.id({ required: false, description: 'Replay the events after this event id first' }).validate(digitId),
    },
    subscribe: async (_r, args, ctx) => {
      const stream = await ctx.deps.events.open(
        { workspaceId: ctx.who.workspaceId, tokenId: ctx.who.tokenId },
        { types: args.types ?? null, after: args.after == null ? null : Number(args.after) },
      );
      return withFreshLoaders(stream, ctx);
    },
    // The last item of a stream the server ended says why: the client gets it as this field's error.
    resolve: (item: StreamItem) => {
      if (item instanceof AppError) throw item;
      return item;
    },
  }),
);
