import { builtCalls } from './built.js';
import { contactCalls } from './contacts.js';
import { contactSearchCalls } from './contact-search.js';
import { customFieldCalls } from './custom-fields.js';
import { tagSequenceCalls } from './tags-sequences.js';
import { commentAutomationCalls } from './comment-automations.js';
import { leadAdCalls } from './lead-ads.js';
import { conversationCalls } from './conversations.js';
import { dynamicImageCalls } from './dynamic-images.js';
import { outboxCalls } from './outbox.js';
import { commentEventCalls } from './comment-events.js';
import { messageCalls } from './messages.js';
import { devEventCalls } from './dev-events.js';
import { webhookCalls } from './webhooks.js';
import { flowCalls } from './flows.js';
import { contactTransferCalls } from './contact-transfers.js';
import { threadControlCalls } from './thread-control.js';
import { folderCalls } from './folders.js';
import type { Call, CallTable, Seeded } from './seed.js';

export { seedContractWorkspace, type Call, type Seeded } from './seed.js';

/** Every area's calls; a new area adds its module here. */
const tables: CallTable[] = [builtCalls, contactCalls, contactSearchCalls, customFieldCalls, tagSequenceCalls, commentAutomationCalls, leadAdCalls, conversationCalls, dynamicImageCalls, outboxCalls, commentEventCalls, devEventCalls, messageCalls, webhookCalls, contactTransferCalls, folderCalls, flowCalls, threadControlCalls];

const calls: CallTable = {};
for (const table of tables) {
  for (const [operationId, call] of Object.entries(table)) {
    if (calls[operationId]) throw new Error(`Two success calls for ${operationId}`);
    calls[operationId] = call;
  }
}

export const successCall = (operationId: string, s: Seeded): Call => {
  const call = calls[operationId];
  if (!call) throw new Error(`No success call for ${operationId}: add one to test/support/contract-calls when adding a route`);
  return call(s);
};
