import type { CallTable } from './seed.js';

/** GET .../events of the seeded automations (the engine's events; none seeded: an empty page). */
export const commentEventCalls: CallTable = {
  'photoComments.listEvents': (s) => ({ method: 'GET', path: `/v1/photo-comments/${s.photoAutomation}/events?page=1&perPage=10` }),
  'netComments.listEvents': (s) => ({ method: 'GET', path: `/v1/net-comments/${s.netAutomation}/events` }),
};
