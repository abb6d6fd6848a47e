import { z } from 'zod';
import { flowOperations as flows } from '../../domain/flows/flow.operations.js';
import { flowItemSchema, MAX_FLOW_ITEMS, MAX_QUICK_REPLIES, type Flow, type FlowItem } from '../../domain/flows/flow.schema.js';
import { plainIds, withoutNulls, type ArgBuilder } from '../args.js';
import { builder, SuccessType } from '../builder.js';
import { contractEnum } from '../enums.js';
import { nodeOptions, rawIdField, recordIdArg } from '../node.js';
import { runOperation } from '../operations.js';
import { pageArgs, pageArgsSchema, pageComplexity, pageOf } from '../page.js';
import { zodInputType } from '../zod-input.js';

/**
 * Flows (scope `automations`), over the operations REST runs (src/domain/flows/flow.operations.ts).
 * GraphQL has no union inputs, so an item is one flat type: `type` and the fields of its kind, the
 * others left out (or null). The REST schema then checks it, so both refuse the same items with
 * the same messages. Where REST answers 204, deleteFlow answers `Success`.
 */

const itemTypes = flowItemSchema.options.map((o) => o.shape.type.value) as [FlowItem['type'], ...FlowItem['type'][]];

const FlowItemTypeEnum = contractEnum(
  'FlowItemType',
  itemTypes,
  'Messages: text, image, dynamicImage, quickReplies. Actions: addTag, removeTag, setCustomField, subscribeSequence, customEvent',
);

type Reply = { title: string; payload?: string };

const FlowQuickReplyType = builder.objectRef<Reply>('FlowQuickReply').implement({
  fields: (t) => ({
    title: t.exposeString('title', { description: 'The button text (1 to 20 characters)' }),
    payload: t.string({ nullable: true, description: 'What the reply sends back; null when the title is all', resolve: (r) => r.payload ?? null }),
  }),
});

/** Reads one field of whichever kind the item is: null when its kind has no such field. */
const fieldOf = <K extends string>(item: FlowItem, key: K): unknown => (key in item ? (item as Record<string, unknown>)[key] : null);

const FlowItemType = builder.objectRef<FlowItem>('FlowItem').implement({
  description: 'One message or action of a flow: `type`, and the fields of that kind (the others are null)',
  fields: (t) => ({
    type: t.field({ type: FlowItemTypeEnum, resolve: (i) => i.type }),
    text: t.string({ nullable: true, description: 'text, quickReplies: the message, with placeholders', resolve: (i) => fieldOf(i, 'text') as string | null }),
    url: t.string({ nullable: true, description: 'image: its http or https URL', resolve: (i) => fieldOf(i, 'url') as string | null }),
    imageId: t.id({ nullable: true, description: "dynamicImage: the dynamic image's plain id", resolve: (i) => fieldOf(i, 'imageId') as string | null }),
    replies: t.field({ type: [FlowQuickReplyType], nullable: true, description: 'quickReplies: the buttons', resolve: (i) => fieldOf(i, 'replies') as Reply[] | null }),
    tagId: t.id({ nullable: true, description: "addTag, removeTag: the tag's plain id", resolve: (i) => fieldOf(i, 'tagId') as string | null }),
    customFieldId: t.id({ nullable: true, description: "setCustomField: the field's plain id", resolve: (i) => fieldOf(i, 'customFieldId') as string | null }),
    value: t.field({
      type: 'JSON',
      nullable: true,
      description: 'setCustomField: the value as sent (a string, number or boolean; null clears the field)',
      resolve: (i) => fieldOf(i, 'value') as never,
    }),
    sequenceId: t.id({ nullable: true, description: "subscribeSequence: the sequence's plain id", resolve: (i) => fieldOf(i, 'sequenceId') as string | null }),
    name: t.string({ nullable: true, description: "customEvent: the event's name (the external webhooks registered for it fire)", resolve: (i) => fieldOf(i, 'name') as string | null }),
  }),
});

export const FlowType = builder.node(builder.objectRef<Flow>('Flow'), {
  ...nodeOptions('Flow', flows.get.access, ({ loaders }) => loaders.flow),
  description: 'An ordered list of messages and actions sent to a contact (contacts.sendFlow, sequence steps).',
  fields: (t) => ({
    rawId: rawIdField(t),
    name: t.exposeString('name'),
    items: t.field({ type: [FlowItemType], resolve: (f) => f.items }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const FlowQuickReplyInputType = builder.inputType('FlowQuickReplyInput', {
  fields: (t) => ({
    title: t.string({ required: true, description: 'The button text (1 to 20 characters)' }),
    payload: t.string({ description: 'What the reply sends back (at most 1000 characters)' }),
  }),
});

const FlowItemInputType = builder.inputType('FlowItemInput', {
  description: 'One item: `type` and the fields its kind takes (REST\'s FlowItem); a field of another kind is refused',
  fields: (t) => ({
    type: t.field({ type: FlowItemTypeEnum, required: true }),
    text: t.string({ description: 'text, quickReplies (1 to 2000 characters)' }),
    url: t.string({ description: 'image: an http or https URL' }),
    imageId: t.id({ description: 'dynamicImage: a dynamic image (global or plain id)' }),
    replies: t.field({ type: [FlowQuickReplyInputType], description: `quickReplies: 1 to ${MAX_QUICK_REPLIES} buttons` }),
    tagId: t.id({ description: 'addTag, removeTag: a tag (global or plain id)' }),
    customFieldId: t.id({ description: 'setCustomField: a custom field (global or plain id)' }),
    value: t.string({ description: 'setCustomField: a value of the field\'s type as text ("42", "true", "2026-03-01"); null clears the field' }),
    sequenceId: t.id({ description: 'subscribeSequence: a sequence (global or plain id)' }),
    name: t.string({ description: 'customEvent: the event\'s name' }),
  }),
});

const itemsDescription = `1 to ${MAX_FLOW_ITEMS} items, sent in order`;

// Items are a union, which GraphQL inputs cannot be: the flat item type above stands for it.
const bodyOptions = { types: { items: [FlowItemInputType] }, descriptions: { items: itemsDescription } };

const CreateFlowInputType = zodInputType('CreateFlowInput', flows.create.body, {
  ...bodyOptions,
  description: 'The body of POST /v1/flows: a name (trimmed, 1 to 255 characters; not unique) and the items.',
});

const UpdateFlowInputType = zodInputType('UpdateFlowInput', flows.update.body, {
  ...bodyOptions,
  description: 'The body of PATCH /v1/flows/{id}: at least one of name or items (which replace the whole list); fields left out keep their value.',
});

/** Item fields that name a record, by the Node type whose global id they may be. */
const idFields = { tagId: 'Tag', customFieldId: 'CustomField', sequenceId: 'Sequence', imageId: 'DynamicImage' } as const;

/**
 * GraphQL sends absent fields as null, where the REST schema leaves them out: nulls go, but for a
 * setCustomField's `value`, where null is a value (it clears the field). Global ids of the records
 * items name become plain ids.
 */
const item = (raw: unknown): unknown => {
  if (!raw || typeof raw !== 'object') return raw;
  const i = raw as Record<string, unknown>;
  const kept = withoutNulls(i) as Record<string, unknown>;
  if (i.type === 'setCustomField' && i.value === null) kept.value = null;
  for (const [key, typename] of Object.entries(idFields)) if (key in kept) kept[key] = plainIds(typename)(kept[key]);
  if (Array.isArray(kept.replies)) kept.replies = kept.replies.map(withoutNulls);
  return kept;
};

const fromGraphQL = (input: unknown) => {
  const i = withoutNulls(input) as Record<string, unknown> | undefined;
  return i && Array.isArray(i.items) ? { ...i, items: i.items.map(item) } : i;
};

builder.queryField('flows', (t) =>
  t.field({
    type: pageOf('FlowPage', FlowType),
    description: "Like GET /v1/flows: the workspace's flows in creation order.",
    access: flows.list.access,
    args: pageArgs(t.arg),
    validate: pageArgsSchema,
    complexity: pageComplexity,
    resolve: (_r, args, ctx) => runOperation(flows.list, ctx, { query: { page: args.page, perPage: args.perPage } }),
  }),
);

const flowIdArg = (arg: ArgBuilder) => arg.id({ required: true, description: 'Its global id, or its plain digit id (rawId)' }).validate(recordIdArg('Flow'));

builder.queryField('flow', (t) =>
  t.field({
    type: FlowType,
    description: 'One flow (as GET /v1/flows/{id}).',
    access: flows.get.access,
    args: { id: flowIdArg(t.arg) },
    resolve: (_r, { id }, ctx) => runOperation(flows.get, ctx, { params: { id } }),
  }),
);

builder.mutationField('createFlow', (t) =>
  t.field({
    type: FlowType,
    description: 'Like POST /v1/flows. The trial and MAC gates apply.',
    access: flows.create.access,
    args: { input: t.arg({ type: CreateFlowInputType, required: true }).validate(z.preprocess(fromGraphQL, flows.create.body)) },
    resolve: (_r, { input }, ctx) => runOperation(flows.create, ctx, { body: input }),
  }),
);

builder.mutationField('updateFlow', (t) =>
  t.field({
    type: FlowType,
    description: 'Like PATCH /v1/flows/{id}: rename, or replace the items.',
    access: flows.update.access,
    args: { id: flowIdArg(t.arg), input: t.arg({ type: UpdateFlowInputType, required: true }).validate(z.preprocess(fromGraphQL, flows.update.body)) },
    resolve: (_r, { id, input }, ctx) => runOperation(flows.update, ctx, { params: { id }, body: input }),
  }),
);

builder.mutationField('deleteFlow', (t) =>
  t.field({
    type: SuccessType,
    description: 'Like DELETE /v1/flows/{id}: sequence steps that send it stay, with no flow.',
    access: flows.delete.access,
    args: { id: flowIdArg(t.arg) },
    resolve: (_r, { id }, ctx) => runOperation(flows.delete, ctx, { params: { id } }),
  }),
);
