import { flowOperations as flows } from '../../domain/flows/flow.operations.js';
import { del, get, patch, post } from '../route.js';

/** Flows (sending one is contacts.sendFlow, with the contact's routes). */
export const flowRoutes = [
  get('/v1/flows', flows.list),
  post('/v1/flows', flows.create, { status: 201, location: (f: { id: string }) => `/v1/flows/${f.id}`, errors: [404] }),
  get('/v1/flows/{id}', flows.get),
  patch('/v1/flows/{id}', flows.update),
  del('/v1/flows/{id}', flows.delete, { status: 204 }),
];
