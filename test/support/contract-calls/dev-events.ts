import type { CallTable } from './seed.js';

let serial = 0;

/** POST /v1/dev/events: one photo comment for the seeded photo account (a new comment id per call). */
export const devEventCalls: CallTable = {
  'dev.injectEvents': (s) => ({
    method: 'POST',
    path: '/v1/dev/events',
    body: {
      channel: 'photo',
      entry: [{ id: s.photoAccount.sourceId, changes: [{ field: 'comments', value: { id: `contract-${process.pid}-${++serial}`, text: 'Price?', from: { id: 'u-contract' } } }] }],
    },
  }),
};
