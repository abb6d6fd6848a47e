import { flowSendOperations as flows } from '../../domain/flows/flow-send.operations.js';
import { post } from '../route.js';

/** Sending a flow to a contact: 204 once the run is queued; 429 past the hourly limit. */
export const contactFlowRoutes = [post('/v1/contacts/{identifier}/flows', flows.send, { status: 204, errors: [429] })];
