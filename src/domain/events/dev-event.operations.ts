import { operation, operationsOf } from '../shared/operation.js';
import { devEventsInput, ingestResultSchema } from './channel-event.schema.js';
import { injectDevEvents } from './channel-event.service.js';

/**
 * Dev events: the webhooks' entries, injected with the workspace token, for trying
 * automations without a network. Only for workspaces in developmentMode, and only for this
 * workspace's inboxes; processed exactly as a webhook's events are.
 */
export const devEventOperations = operationsOf('Dev events', {
  inject: operation({
    id: 'dev.injectEvents',
    summary: 'Inject webhook events',
    description:
      'Injects webhook events (comments, leads, messages, receipts) into a developmentMode workspace, with leads and profiles for the sandbox adapter to answer fetches with.',
    access: { action: 'write', scope: 'automations' },
    body: devEventsInput,
    output: ingestResultSchema,
    outputDescription: 'The events are stored and queued; a redelivered one (same comment, lead or message id) is counted as a duplicate and not processed again',
    examples: {
      body: {
        channel: 'photo',
        entry: [
          {
            id: '17841400000000001',
            time: 1795435200,
            changes: [{ field: 'comments', value: { id: '17858893269000001', text: 'How much is it?', from: { id: '5550001', username: 'ada' }, media: { id: '178920001', media_product_type: 'FEED' } } }],
          },
        ],
        profiles: [{ id: '5550001', firstName: 'Ada', lastName: 'Lovelace', name: 'Ada Lovelace' }],
      },
      response: { received: 1, stored: 1, duplicates: 0, unknownAccounts: 0, ignored: 0, invalid: 0, eventIds: ['41'] },
    },
    run: ({ db, who, body, queue, adapter }) => injectDevEvents({ db, queue, adapter: adapter.name }, who.workspaceId, body),
  }),
});
