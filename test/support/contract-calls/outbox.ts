import type { CallTable } from './seed.js';

/** GET /v1/outbox, filtered by the seeded contact (the seed records a private reply to it). */
export const outboxCalls: CallTable = {
  'outbox.list': (s) => ({ method: 'GET', path: `/v1/outbox?page=1&perPage=10&contactId=${s.contact}&action=privateReply` }),
};
