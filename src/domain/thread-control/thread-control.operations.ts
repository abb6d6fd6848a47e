import { operation, operationsOf } from '../shared/operation.js';
import { idParams } from '../shared/schemas.js';
import { syncThreadOwnerInput, threadControlInput, threadControlResultSchema, type ThreadState } from './thread-state.schema.js';
import { controlThread, syncThreadOwner } from './thread-state.service.js';

const write = { action: 'write', scope: 'conversations' } as const;

/** Contact 41's thread in photo inbox 5 (conversation 4), handed to the networks' inbox app by our pass. */
const passed: ThreadState = {
  contactInboxId: '12',
  state: 'standby',
  ownerRole: 'secondary',
  ownerAppId: 'page-inbox',
  transitionedAt: '2026-11-23T10:20:00.000Z',
  lastUserMessageAt: '2026-11-23T10:14:00.000Z',
  expiresAt: '2026-11-24T10:20:00.000Z',
  idleSince: null,
  lastEvent: 'pass',
  lastEventSource: 'api',
  updatedAt: '2026-11-23T10:20:00.000Z',
};

/**
 * Thread control of a conversation's contact inbox (the networks' handover protocol): our calls,
 * through the channel adapter, and the network's word on who holds the thread.
 */
export const threadControlOperations = operationsOf('Conversations', {
  control: operation({
    id: 'conversations.threadControl',
    summary: 'Take, pass, release or sync a thread',
    description:
      "Changes who holds the contact's thread in the conversation's inbox: take (our app), pass (to targetAppId, default HANDOVER_TARGET_APP_ID) or release (to that app), through the channel adapter; sync asks the network who holds it. A call that would change nothing answers notEscalation and calls nothing. contactInboxId must be the conversation's contact in its inbox (another is 422 validation notInConversation; an unknown one 404). A network refusal is 400 businessError with its words.",
    access: write,
    params: idParams,
    body: threadControlInput,
    output: threadControlResultSchema,
    outputDescription: 'Whether the thread changed, and the thread as it is now',
    examples: { params: { id: '4' }, body: { contactInboxId: '12', action: 'pass', targetAppId: 'page-inbox', metadata: 'Customer asked for a human' }, response: { status: 'applied', snapshot: passed } },
    run: ({ db, adapter, logger, who, params, body }) => controlThread({ db, adapter, logger }, who.workspaceId, params.id, body),
  }),
  syncOwner: operation({
    id: 'conversations.syncThreadOwner',
    summary: "Sync a thread's owner",
    description:
      "Asks the network (through the channel adapter) which app holds the contact's thread in the conversation's inbox, and records it: ours when it names our app (CHANNEL_APP_ID) or none, standby otherwise. notEscalation when the record said so already.",
    access: write,
    params: idParams,
    body: syncThreadOwnerInput,
    output: threadControlResultSchema,
    outputDescription: 'Whether the record changed, and the thread as it is now',
    examples: { params: { id: '4' }, body: { contactInboxId: '12' }, response: { status: 'notEscalation', snapshot: passed } },
    run: ({ db, adapter, logger, who, params, body }) => syncThreadOwner({ db, adapter, logger }, who.workspaceId, params.id, body),
  }),
});
