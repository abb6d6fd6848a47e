import { fixtures } from '../fixtures.js';
import type { CallTable } from './seed.js';
import type { Executor } from '../../../src/db/database.js';

let created = 0;

/** A flow every call may name, and one the delete call consumes. */
export async function seedFlows(db: Executor, workspaceId: number, tag: number) {
  const f = fixtures(db, workspaceId);
  return {
    welcome: await f.flow('Welcome flow', [
      { type: 'text', text: 'Hi {{first_name}}' },
      { type: 'addTag', tagId: String(tag) },
    ]),
    disposable: await f.flow('To delete'),
  };
}

/** Flows: stored, listed, read, created, edited (sending one is contacts.sendFlow). */
export const flowCalls: CallTable = {
  'flows.list': () => ({ method: 'GET', path: '/v1/flows?page=1&perPage=10' }),
  'flows.create': (s) => ({
    method: 'POST',
    path: '/v1/flows',
    body: {
      name: `Welcome ${++created}`,
      items: [
        { type: 'text', text: 'Hi {{first_name}}' },
        { type: 'quickReplies', text: 'Which plan?', replies: [{ title: 'Gold', payload: 'GOLD' }] },
        { type: 'addTag', tagId: String(s.tags.vip) },
        { type: 'setCustomField', customFieldId: String(s.customFields.score), value: 42 },
        { type: 'subscribeSequence', sequenceId: String(s.sequences.newsletter) },
        { type: 'dynamicImage', imageId: String(s.dynamicImages.badge) },
      ],
    },
  }),
  'flows.get': (s) => ({ method: 'GET', path: `/v1/flows/${s.flows.welcome}` }),
  'flows.update': (s) => ({ method: 'PATCH', path: `/v1/flows/${s.flows.welcome}`, body: { name: 'Welcome' } }),
  'flows.delete': (s) => ({ method: 'DELETE', path: `/v1/flows/${s.flows.disposable}` }),
};
