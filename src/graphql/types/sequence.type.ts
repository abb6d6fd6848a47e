import { z } from 'zod';
import type { SubscriptionRecord } from '../../domain/sequences/sequence.repository.js';
import {
  bulkSubscribeSequencesInput,
  contactSequenceIdsInput,
  createSequenceInput,
  setContactSequencesInput,
  updateSequenceInput,
  type Sequence,
} from '../../domain/sequences/sequence.schema.js';
import {
  bulkSubscribeSequences,
  changeContactSequences,
  createSequence,
  deleteSequence,
  getSequence,
  listSequencesPage,
  updateSequence,
} from '../../domain/sequences/sequence.service.js';
import { contactIdentifier, identifierArg, plainIds, withoutNulls, type ArgBuilder } from '../args.js';
import { builder, SuccessType } from '../builder.js';
import { nodeOptions, rawIdField, recordIdArg } from '../node.js';
import { pageArgs, pageArgsSchema, pageComplexity, pageOf } from '../page.js';
import { BulkRelationResultType } from './tag.type.js';

export const SequenceSubscriptionType = builder.objectRef<SubscriptionRecord>('SequenceSubscription').implement({
  fields: (t) => ({ sequenceId: t.exposeID('sequenceId'), sequenceName: t.exposeString('sequenceName') }),
});

const read = { action: 'read', scope: 'sequences' } as const;

export const SequenceType = builder.node(builder.objectRef<Sequence>('Sequence'), {
  ...nodeOptions('Sequence', read, ({ loaders }) => loaders.sequence),
  description: 'A sequence contacts subscribe to: a name and an isActive flag (steps come later).',
  fields: (t) => ({
    rawId: rawIdField(t),
    name: t.exposeString('name'),
    isActive: t.exposeBoolean('isActive'),
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
    access: read,
    args: pageArgs(t.arg),
    validate: pageArgsSchema,
    complexity: pageComplexity,
    resolve: (_r, args, { db, who }) => listSequencesPage(db, who.workspaceId, { page: args.page, perPage: args.perPage }),
  }),
);

const sequenceIdArg = (arg: ArgBuilder) => arg.id({ required: true, description: 'Its global id, or its plain digit id (rawId)' }).validate(recordIdArg('Sequence'));

builder.queryField('sequence', (t) =>
  t.field({
    type: SequenceType,
    description: 'One sequence (as GET /v1/sequences/{id}).',
    access: read,
    args: { id: sequenceIdArg(t.arg) },
    resolve: (_r, { id }, { db, who }) => getSequence(db, who.workspaceId, id),
  }),
);

const CreateSequenceInputType = builder.inputType('CreateSequenceInput', {
  description: 'The body of POST /v1/sequences: a name (trimmed, 1 to 255 characters; not unique) and isActive (default true).',
  fields: (t) => ({ name: t.string({ required: true }), isActive: t.boolean() }),
});
const UpdateSequenceInputType = builder.inputType('UpdateSequenceInput', {
  description: 'The body of PATCH /v1/sequences/{id}: at least one of name or isActive; fields left out keep their value.',
  fields: (t) => ({ name: t.string(), isActive: t.boolean() }),
});


builder.mutationField('createSequence', (t) =>
  t.field({
    type: SequenceType,
    description: 'Like POST /v1/sequences. The trial and MAC gates apply.',
    access: { action: 'write', scope: 'sequences' },
    args: { input: t.arg({ type: CreateSequenceInputType, required: true }).validate(z.preprocess(withoutNulls, createSequenceInput)) },
    resolve: (_r, { input }, { db, who }) => createSequence(db, who.workspaceId, input),
  }),
);

builder.mutationField('updateSequence', (t) =>
  t.field({
    type: SequenceType,
    description: 'Like PATCH /v1/sequences/{id}: rename, or switch on or off.',
    access: { action: 'write', scope: 'sequences' },
    args: {
      id: sequenceIdArg(t.arg),
      input: t.arg({ type: UpdateSequenceInputType, required: true }).validate(z.preprocess(withoutNulls, updateSequenceInput)),
    },
    resolve: (_r, { id, input }, { db, who }) => updateSequence(db, who.workspaceId, id, input),
  }),
);

builder.mutationField('deleteSequence', (t) =>
  t.field({
    type: SuccessType,
    description: 'Like DELETE /v1/sequences/{id}: the sequence and every subscription to it.',
    access: { action: 'delete', scope: 'sequences' },
    args: { id: sequenceIdArg(t.arg) },
    resolve: async (_r, { id }, { db, who }) => deleteSequence(db, who.workspaceId, id),
  }),
);

const sequenceIdsArg = (arg: ArgBuilder, schema: z.ZodType<string[]>) =>
  arg.idList({ required: true, description: 'Sequence ids: global or plain digit ids, at most 100' }).validate(z.preprocess(plainIds('Sequence'), schema));

const contactSequenceMutation = (name: string, change: 'subscribe' | 'unsubscribe' | 'set', description: string) =>
  builder.mutationField(name, (t) =>
    t.field({
      type: SuccessType,
      description,
      access: { action: change === 'unsubscribe' ? 'delete' : 'write', scope: 'contacts' },
      args: {
        identifier: identifierArg(t.arg),
        sequenceIds: sequenceIdsArg(t.arg, (change === 'set' ? setContactSequencesInput : contactSequenceIdsInput).shape.sequenceIds),
      },
      resolve: async (_r, args, { db, who }) =>
        changeContactSequences(db, who.workspaceId, contactIdentifier(args.identifier), change, args.sequenceIds),
    }),
  );

contactSequenceMutation(
  'subscribeContactSequences',
  'subscribe',
  'Like POST /v1/contacts/{identifier}/sequences: existing subscriptions are untouched; unknown sequence ids are 404 with data.ids, and nothing changes.',
);
contactSequenceMutation('unsubscribeContactSequences', 'unsubscribe', 'Like DELETE /v1/contacts/{identifier}/sequences: unknown sequence ids are 404 with data.ids, and nothing changes.');
contactSequenceMutation('setContactSequences', 'set', 'Like PUT /v1/contacts/{identifier}/sequences: subscribed to exactly these afterwards (an empty list unsubscribes from all).');

builder.mutationField('bulkSubscribeContactSequences', (t) =>
  t.field({
    type: BulkRelationResultType,
    description: 'Like POST /v1/contacts/bulk/sequences: 1 to 1,000 contacts, one transaction; unknown contact or sequence ids are 404 with data.ids, and nothing changes.',
    access: { action: 'write', scope: 'contacts' },
    args: {
      contactIds: t.arg
        .idList({ required: true, description: 'Contact ids: global or plain digit ids' })
        .validate(z.preprocess(plainIds('Contact'), bulkSubscribeSequencesInput.shape.contactIds)),
      sequenceIds: sequenceIdsArg(t.arg, bulkSubscribeSequencesInput.shape.sequenceIds),
    },
    resolve: (_r, args, { db, who }) => bulkSubscribeSequences(db, who.workspaceId, { contactIds: args.contactIds, sequenceIds: args.sequenceIds }),
  }),
);
