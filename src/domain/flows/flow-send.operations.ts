import { z } from 'zod';
import { identifierParams } from '../contacts/contact.schema.js';
import { operation, operationsOf } from '../shared/operation.js';
import { sendFlowInput } from './flow-send.schema.js';
import { FLOW_SENDS_PER_HOUR, sendFlow } from './flow-send.service.js';

/** Sending a flow to a contact (the automation tool's "Send Flow"). */
export const flowSendOperations = operationsOf('Contacts', {
  send: operation({
    id: 'contacts.sendFlow',
    summary: 'Send a flow to a contact',
    description:
      `Runs the flow for the contact in its conversation (in inboxId, else the one it wrote in last), as a job: messages in order, then actions. ` +
      `Honours Idempotency-Key. At most ${FLOW_SENDS_PER_HOUR} sends per contact per hour (429 with retryAfterSeconds). ` +
      'A run that cannot send (the 24-hour messaging window closed, another app holds the thread) sends nothing.',
    access: { action: 'write', scope: 'contacts' },
    params: identifierParams,
    body: sendFlowInput,
    output: z.undefined(),
    outputDescription: 'Accepted: the flow runs shortly',
    examples: { params: { identifier: 'id:1' }, body: { flowId: '1' }, response: undefined },
    run: ({ db, who, queue, params, body }) => sendFlow(db, queue, who.workspaceId, params.identifier, body),
    present: () => undefined,
  }),
});
