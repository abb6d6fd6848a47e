import { z } from 'zod';
import { contactSequenceOperations as contactSequences } from '../../domain/sequences/contact-sequence.operations.js';
import type { SubscriptionRecord } from '../../domain/sequences/sequence.repository.js';
import { sequenceOperations as sequences } from '../../domain/sequences/sequence.operations.js';
import type { Sequence } from '../../domain/sequences/sequence.schema.js';
import { contactIdentifier, identifierArg, plainIds, withoutNulls, type ArgBuilder } from '../args.js';
import { builder, SuccessType } from '../builder.js';
import { nodeOptions, rawIdField, recordIdArg } from '../node.js';
import { runOperation } from '../operations.js';
import { pageArgs, pageArgsSchema, pageComplexity, pageOf } from '../page.js';
import { zodInputType } from '../zod-input.js';
import { SequenceFolderType } from './folder.type.js';
import { BulkRelationResultType } from './tag.type.js';

export const SequenceSubscriptionType = builder.objectRef<SubscriptionRecord>('SequenceSubscription').implement({
  fields: (t) => ({ sequenceId: t.exposeID('sequenceId'), sequenceName: t.exposeString('sequenceName') }),
});

export const SequenceType = builder.node(builder.objectRef<Sequence>('Sequence'), {
  ...nodeOptions('Sequence', sequences.get.access, ({ loaders }) => loaders.sequence),
  description: 'A sequence contacts subscribe to: a name, an isActive flag and the folder it is filed in.',
  fields: (t) => ({
    rawId: rawIdField(t),
    name: t.exposeString('name'),
    isActive: t.exposeBoolean('isActive'),
    folderId: t.exposeID('folderId', { nullable: true, description: 'The plain id of the sequence folder it is filed in; null at the top level' }),
    folder: t.field({
      type: SequenceFolderType,
      nullable: true,
      description: 'The sequence folder it is filed in (one statement per batch of sequences); null at the top level',
      resolve: (s, _a, { loaders }) => (s.folderId === null ? null : loaders.sequenceFolder.load(Number(s.folderId))),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    subscribersCount: t.int({
      description: 'How many contacts are subscribed (one grouped count per batch of sequences)',
      resolve: (s, _a, { loaders }) => loaders.sequenceSubscribersCount.load(Number(s.id)),
    }),
  }),
});

builder.queryField('sequences', (t) =>
  t.field({
    type: pageOf('SequencePage', SequenceType),
    description: "Like GET /v1/sequences: the workspace's sequences in creation order.",
    access: sequences.list.access,
    args: pageArgs(t.arg),
    validate: pageArgsSchema,
    complexity: pageComplexity,
    resolve: (_r, args, ctx) => runOperation(sequences.list, ctx, { query: { page: args.page, perPage: args.perPage } }),
  }),
);

const sequenceIdArg = (arg: ArgBuilder) => arg.id({ required: true, description: 'Its global id, or its plain digit id (rawId)' }).validate(recordIdArg('Sequence'));

builder.queryField('sequence', (t) =>
  t.field({
    type: SequenceType,
    description: 'One sequence (as GET /v1/sequences/{id}).',
    access: sequences.get.access,
    args: { id: sequenceIdArg(t.arg) },
    resolve: (_r, { id }, ctx) => runOperation(sequences.get, ctx, { params: { id } }),
  }),
);

const CreateSequenceInputType = zodInputType('CreateSequenceInput', sequences.create.body, {
  description: 'The body of POST /v1/sequences: a name (trimmed, 1 to 255 characters; not unique), isActive (default true) and the folder to file it in.',
  types: { folderId: 'ID' },
  // The type's description says it; "" leaves the field without one.
  descriptions: { isActive: null, folderId: 'A sequence folder to file it in (its global or plain id); left out or null: the top level' },
});
const UpdateSequenceInputType = zodInputType('UpdateSequenceInput', sequences.update.body, {
  description: 'The body of PATCH /v1/sequences/{id}: at least one of name, isActive or folderId; fields left out keep their value.',
  types: { folderId: 'ID' },
  descriptions: { folderId: 'A sequence folder to file it in (its global or plain id); null takes it out of its folder' },
});

/**
 * Explicit nulls mean "not given", but for folderId, where null takes the sequence out of its
 * folder; a folder's global id becomes its plain id.
 */
const sequenceInput = (input: unknown) => {
  const given = withoutNulls(input) as Record<string, unknown>;
  const raw = input && typeof input === 'object' ? (input as Record<string, unknown>) : {};
  if (raw.folderId === null) return { ...given, folderId: null };
  return 'folderId' in given ? { ...given, folderId: plainIds('SequenceFolder')(given.folderId) } : given;
};

builder.mutationField('createSequence', (t) =>
  t.field({
    type: SequenceType,
    description: 'Like POST /v1/sequences. The trial and MAC gates apply.',
    access: sequences.create.access,
    args: { input: t.arg({ type: CreateSequenceInputType, required: true }).validate(z.preprocess(sequenceInput, sequences.create.body)) },
    resolve: (_r, { input }, ctx) => runOperation(sequences.create, ctx, { body: input }),
  }),
);

builder.mutationField('updateSequence', (t) =>
  t.field({
    type: SequenceType,
    description: 'Like PATCH /v1/sequences/{id}: rename, switch on or off, or file in a sequence folder (null: out of its folder).',
    access: sequences.update.access,
    args: {
      id: sequenceIdArg(t.arg),
      input: t.arg({ type: UpdateSequenceInputType, required: true }).validate(z.preprocess(sequenceInput, sequences.update.body)),
    },
    resolve: (_r, { id, input }, ctx) => runOperation(sequences.update, ctx, { params: { id }, body: input }),
  }),
);

builder.mutationField('deleteSequence', (t) =>
  t.field({
    type: SuccessType,
    description: 'Like DELETE /v1/sequences/{id}: the sequence and every subscription to it.',
    access: sequences.delete.access,
    args: { id: sequenceIdArg(t.arg) },
    resolve: (_r, { id }, ctx) => runOperation(sequences.delete, ctx, { params: { id } }),
  }),
);

const sequenceIdsArg = (arg: ArgBuilder, schema: z.ZodType<string[]>) =>
  arg.idList({ required: true, description: 'Sequence ids: global or plain digit ids, at most 100' }).validate(z.preprocess(plainIds('Sequence'), schema));

const contactSequenceMutation = (
  name: string,
  op: typeof contactSequences.subscribe | typeof contactSequences.unsubscribe | typeof contactSequences.set,
  description: string,
) =>
  builder.mutationField(name, (t) =>
    t.field({
      type: SuccessType,
      description,
      access: op.access,
      args: { identifier: identifierArg(t.arg), sequenceIds: sequenceIdsArg(t.arg, op.body.shape.sequenceIds) },
      resolve: (_r, args, ctx) =>
        runOperation(op, ctx, { params: { identifier: contactIdentifier(args.identifier) }, body: { sequenceIds: args.sequenceIds } }),
    }),
  );

contactSequenceMutation(
  'subscribeContactSequences',
  contactSequences.subscribe,
  'Like POST /v1/contacts/{identifier}/sequences: existing subscriptions are untouched; unknown sequence ids are 404 with data.ids, and nothing changes.',
);
contactSequenceMutation(
  'unsubscribeContactSequences',
  contactSequences.unsubscribe,
  'Like DELETE /v1/contacts/{identifier}/sequences: unknown sequence ids are 404 with data.ids, and nothing changes.',
);
contactSequenceMutation(
  'setContactSequences',
  contactSequences.set,
  'Like PUT /v1/contacts/{identifier}/sequences: subscribed to exactly these afterwards (an empty list unsubscribes from all).',
);

builder.mutationField('bulkSubscribeContactSequences', (t) =>
  t.field({
    type: BulkRelationResultType,
    description: 'Like POST /v1/contacts/bulk/sequences: 1 to 1,000 contacts, one transaction; unknown contact or sequence ids are 404 with data.ids, and nothing changes.',
    access: contactSequences.bulkSubscribe.access,
    args: {
      contactIds: t.arg
        .idList({ required: true, description: 'Contact ids: global or plain digit ids' })
        .validate(z.preprocess(plainIds('Contact'), contactSequences.bulkSubscribe.body.shape.contactIds)),
      sequenceIds: sequenceIdsArg(t.arg, contactSequences.bulkSubscribe.body.shape.sequenceIds),
    },
    resolve: (_r, args, ctx) => runOperation(contactSequences.bulkSubscribe, ctx, { body: { contactIds: args.contactIds, sequenceIds: args.sequenceIds } }),
  }),
);
