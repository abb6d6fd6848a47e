import { z } from 'zod';
import { operation, operationsOf } from '../shared/operation.js';
import { idParams } from '../shared/schemas.js';
import { createFlowInput, flowPageSchema, flowSchema, flowsQuery, updateFlowInput, type FlowItem } from './flow.schema.js';
import { createFlow, deleteFlow, getFlow, listFlowsPage, updateFlow } from './flow.service.js';

const read = { action: 'read', scope: 'automations' } as const;
const write = { action: 'write', scope: 'automations' } as const;
/** A 204: nothing in the body. */
const noContent = z.undefined();

const created = '2026-11-27T10:00:00.000Z';
const welcomeItems: FlowItem[] = [
  { type: 'text', text: 'Hi {{first_name}}, welcome aboard!' },
  { type: 'quickReplies', text: 'What brings you here?', replies: [{ title: 'Pricing', payload: 'PRICING' }, { title: 'Support', payload: 'SUPPORT' }] },
  { type: 'addTag', tagId: '3' },
];
const welcome = { id: '5', name: 'Welcome flow', items: welcomeItems, createdAt: created, updatedAt: created };
const springSale = {
  id: '6',
  name: 'Spring sale',
  items: [
    { type: 'text', text: 'Our spring sale starts today, {{first_name}}.' },
    { type: 'image', url: 'https://cdn.example.com/spring-sale.png' },
    { type: 'customEvent', name: 'spring_sale_clicked' },
  ] satisfies FlowItem[],
  createdAt: created,
  updatedAt: created,
};

const itemRules =
  'Every tag (live), custom field, sequence and dynamic image an item names must be the workspace\'s (404 naming the resource, with `data.ids`); a setCustomField value must suit the field\'s type, as a contact\'s value does (422 at the item\'s value; null or "" clears the field).';

/** Flows: ordered messages and actions, stored here and sent by contacts.sendFlow and sequence steps. */
export const flowOperations = operationsOf('Flows', {
  list: operation({
    id: 'flows.list',
    summary: 'List flows',
    description: "The workspace's flows, in creation order.",
    access: read,
    query: flowsQuery,
    output: flowPageSchema,
    outputDescription: 'A page of flows',
    examples: { query: { page: '1', perPage: '20' }, response: { data: [welcome, springSale], pageCount: 1 } },
    run: ({ db, who, query }) => listFlowsPage(db, who.workspaceId, { page: query.page, perPage: query.perPage }),
  }),
  create: operation({
    id: 'flows.create',
    summary: 'Create a flow',
    description: `A name (not unique) and 1 to 50 items, sent in order. ${itemRules}`,
    access: write,
    body: createFlowInput,
    output: flowSchema,
    outputDescription: 'The new flow',
    examples: { body: { name: 'Welcome flow', items: welcomeItems }, response: welcome },
    run: ({ db, who, body, at }) => createFlow(db, who.workspaceId, body, at.body),
  }),
  get: operation({
    id: 'flows.get',
    summary: 'Get a flow',
    access: read,
    params: idParams,
    output: flowSchema,
    outputDescription: 'The flow',
    examples: { params: { id: '5' }, response: welcome },
    run: ({ db, who, params }) => getFlow(db, who.workspaceId, params.id),
  }),
  update: operation({
    id: 'flows.update',
    summary: 'Rename a flow or replace its items',
    description: `Items sent replace the whole list. ${itemRules}`,
    access: write,
    params: idParams,
    body: updateFlowInput,
    output: flowSchema,
    outputDescription: 'The flow as changed',
    examples: { params: { id: '5' }, body: { name: 'Welcome' }, response: { ...welcome, name: 'Welcome', updatedAt: '2026-11-28T08:00:00.000Z' } },
    run: ({ db, who, params, body, at }) => updateFlow(db, who.workspaceId, params.id, body, at.body),
  }),
  delete: operation({
    id: 'flows.delete',
    summary: 'Delete a flow',
    description: 'Sequence steps that send it stay, with no flow (they send nothing); the records of its runs go with it.',
    access: { action: 'delete', scope: 'automations' },
    params: idParams,
    output: noContent,
    outputDescription: 'Deleted',
    examples: { params: { id: '5' }, response: undefined },
    run: ({ db, who, params }) => deleteFlow(db, who.workspaceId, params.id),
    present: () => undefined,
  }),
});
