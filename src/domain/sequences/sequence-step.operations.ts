import { z } from 'zod';
import { operation, operationsOf } from '../shared/operation.js';
import { idParams } from '../shared/schemas.js';
import { sequenceStepListSchema, stepContactPageSchema, stepContactsQuery, stepIdSchema, stepParams, upsertStepInput } from './sequence-step.schema.js';
import { deleteStep, listStepContacts, listSteps, upsertStep } from './sequence-step.service.js';

const step = {
  id: '4',
  sequenceId: '1',
  order: 1,
  delayUnit: 'hours' as const,
  delayDays: null,
  delayMinutes: 120,
  specificDateTime: null,
  flowId: '2',
  isActive: true,
  anytime: false,
  sendTimeStart: '09:00',
  sendTimeEnd: '18:00',
  sendDays: ['mon' as const, 'tue' as const, 'wed' as const, 'thu' as const, 'fri' as const],
  createdAt: '2026-11-23T10:15:00.000Z',
  updatedAt: '2026-11-23T10:15:00.000Z',
};

/** A sequence's steps: each sends a flow when it is due (src/engine/sequences/ runs them). */
export const sequenceStepOperations = operationsOf('Sequences', {
  list: operation({
    id: 'sequences.listSteps',
    summary: "List a sequence's steps",
    description: 'The steps in the order they run (order, then creation).',
    access: { action: 'read', scope: 'sequences' },
    params: idParams,
    output: sequenceStepListSchema,
    outputDescription: 'The steps',
    examples: { params: { id: '1' }, response: { data: [step] } },
    run: ({ db, who, params }) => listSteps(db, who.workspaceId, params.id),
    present: (data) => ({ data }),
  }),
  upsert: operation({
    id: 'sequences.upsertStep',
    summary: 'Create or change a sequence step',
    description:
      'Without stepId, adds a step; with it, replaces that step of this sequence (another sequence\'s step is 404). Subscribers waiting because the sequence had no step start with the first one.',
    access: { action: 'write', scope: 'sequences' },
    params: idParams,
    body: upsertStepInput,
    output: stepIdSchema,
    outputDescription: 'The step created or changed',
    examples: {
      params: { id: '1' },
      body: { order: 1, delayUnit: 'hours', delayMinutes: 120, flowId: '2', sendTimeStart: '09:00', sendTimeEnd: '18:00', sendDays: ['mon', 'tue', 'wed', 'thu', 'fri'] },
      response: { stepId: '4' },
    },
    run: ({ db, who, queue, params, body }) => upsertStep(db, queue, who.workspaceId, params.id, body),
  }),
  delete: operation({
    id: 'sequences.deleteStep',
    summary: 'Delete a sequence step',
    description: 'Subscribers due for it move on to the next step (or finish).',
    access: { action: 'delete', scope: 'sequences' },
    params: stepParams,
    output: z.undefined(),
    outputDescription: 'Deleted',
    examples: { params: { id: '1', stepId: '4' }, response: undefined },
    run: ({ db, who, queue, params }) => deleteStep(db, queue, who.workspaceId, params.id, params.stepId),
    present: () => undefined,
  }),
  listContacts: operation({
    id: 'sequences.listStepContacts',
    summary: 'List the contacts a step reached',
    description: 'What the step did for each contact, newest first: sent, failed (with the reason), skipped or moved into its send window (with the reason).',
    access: { action: 'read', scope: 'sequences' },
    params: stepParams,
    query: stepContactsQuery,
    output: stepContactPageSchema,
    outputDescription: 'A page of step events with their contacts, and how many match',
    examples: {
      params: { id: '1', stepId: '4' },
      query: { eventType: 'message:sent', page: '1', perPage: '20' },
      response: {
        data: [{ contactId: '12', firstName: 'Ada', lastName: 'Lovelace', eventType: 'message:sent', reason: null, createdAt: '2026-11-24T09:00:00.000Z' }],
        total: 1,
        pageCount: 1,
      },
    },
    run: ({ db, who, params, query }) => listStepContacts(db, who.workspaceId, params.id, params.stepId, query.eventType, { page: query.page, perPage: query.perPage }),
  }),
});
