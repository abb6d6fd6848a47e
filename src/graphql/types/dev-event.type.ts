import { z } from 'zod';
import type { IngestResult } from '../../domain/events/channel-event.schema.js';
import { devEventOperations as devEvents } from '../../domain/events/dev-event.operations.js';
import { withoutNulls } from '../args.js';
import { builder } from '../builder.js';
import { runOperation } from '../operations.js';
import { zodInputType } from '../zod-input.js';
import { ChannelEnum } from './comment-automation.type.js';

const IngestResultType = builder.objectRef<IngestResult>('IngestResult').implement({
  description: 'What became of the events of one webhook delivery or dev-event call',
  fields: (t) => ({
    received: t.exposeInt('received', { description: 'Events read from the body' }),
    stored: t.exposeInt('stored', { description: 'New events stored and queued for processing' }),
    duplicates: t.exposeInt('duplicates', { description: 'Events already received (redeliveries): not processed again' }),
    unknownAccounts: t.exposeInt('unknownAccounts', { description: 'Events for accounts no inbox is connected to' }),
    ignored: t.exposeInt('ignored', { description: 'Changes of fields the engine does not handle, and echoes' }),
    invalid: t.exposeInt('invalid', { description: 'Webhooks only: changes without the shape we read, dropped and counted (dev events refuse them)' }),
    eventIds: t.exposeStringList('eventIds', { description: 'Ids of the stored events' }),
  }),
});

const body = devEvents.inject.body;
const DevLeadInput = zodInputType('DevLeadInput', body.shape.leads.unwrap().element, {
  description: 'A lead the sandbox adapter answers fetches with, by its lead id',
  nested: { fields: 'DevLeadFieldInput' },
});
const DevProfileInput = zodInputType('DevProfileInput', body.shape.profiles.unwrap().element, {
  description: 'A profile the sandbox adapter answers fetches with, by the network user id',
});
const DevEventsInputType = zodInputType('DevEventsInput', body, {
  description: 'The body of POST /v1/dev/events: a channel and webhook entries, with leads and profiles for the sandbox adapter',
  types: { channel: ChannelEnum, entry: ['WebhookEntry'], leads: [DevLeadInput], profiles: [DevProfileInput] },
  // The types' descriptions say it; "" leaves the fields without one.
  descriptions: { leads: null, profiles: null },
});

/** GraphQL leaves absent fields as null; the REST schema leaves them out. */
const fromGraphQL = (input: unknown) => {
  const i = withoutNulls(input) as Record<string, unknown>;
  const records = (list: unknown) => (Array.isArray(list) ? list.map(withoutNulls) : list);
  return { ...i, ...(i.leads ? { leads: records(i.leads) } : {}), ...(i.profiles ? { profiles: records(i.profiles) } : {}) };
};

builder.mutationField('injectDevEvents', (t) =>
  t.field({
    type: IngestResultType,
    description: 'Like POST /v1/dev/events: webhook entries for this developmentMode workspace\'s inboxes, processed as a webhook\'s are.',
    access: devEvents.inject.access,
    args: { input: t.arg({ type: DevEventsInputType, required: true }).validate(z.preprocess(fromGraphQL, devEvents.inject.body)) },
    resolve: (_r, { input }, ctx) => runOperation(devEvents.inject, ctx, { body: input }),
  }),
);
