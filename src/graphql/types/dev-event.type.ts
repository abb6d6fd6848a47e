import { z } from 'zod';
import { devEventsInput, type IngestResult } from '../../domain/events/channel-event.schema.js';
import { injectDevEvents } from '../../domain/events/channel-event.service.js';
import { withoutNulls } from '../args.js';
import { builder } from '../builder.js';
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

const DevLeadFieldInput = builder.inputType('DevLeadFieldInput', {
  fields: (t) => ({ name: t.string({ required: true }), values: t.stringList({ required: true }) }),
});
const DevLeadInput = builder.inputType('DevLeadInput', {
  description: 'A lead the sandbox adapter answers fetches with, by its lead id',
  fields: (t) => ({
    id: t.string({ required: true }),
    createdAt: t.string(),
    formId: t.string(),
    adId: t.string(),
    fields: t.field({ type: [DevLeadFieldInput], required: true }),
  }),
});
const DevProfileInput = builder.inputType('DevProfileInput', {
  description: 'A profile the sandbox adapter answers fetches with, by the network user id',
  fields: (t) => ({ id: t.string({ required: true }), firstName: t.string(), lastName: t.string(), name: t.string(), username: t.string(), avatarUrl: t.string() }),
});
const DevEventsInputType = builder.inputType('DevEventsInput', {
  description: 'The body of POST /v1/dev/events: a channel and webhook entries, with leads and profiles for the sandbox adapter',
  fields: (t) => ({
    channel: t.field({ type: ChannelEnum, required: true }),
    entry: t.field({ type: ['WebhookEntry'], required: true }),
    leads: t.field({ type: [DevLeadInput] }),
    profiles: t.field({ type: [DevProfileInput] }),
  }),
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
    access: { action: 'write', scope: 'automations' },
    args: { input: t.arg({ type: DevEventsInputType, required: true }).validate(z.preprocess(fromGraphQL, devEventsInput)) },
    resolve: (_r, { input }, { db, who, deps }) => injectDevEvents({ db, queue: deps.queue, adapter: deps.adapter.name }, who.workspaceId, input),
  }),
);
