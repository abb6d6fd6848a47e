import { z } from 'zod';
import { folderOperationsOf } from '../../domain/folders/folder.operations.js';
import type { Folder, FolderType } from '../../domain/folders/folder.schema.js';
import { digitId } from '../../domain/shared/schemas.js';
import { plainIds, withoutNulls, type ArgBuilder } from '../args.js';
import type { GraphQLContext } from '../context.js';
import { builder, SuccessType } from '../builder.js';
import { nodeOptions, rawIdField, recordIdArg } from '../node.js';
import { runOperation } from '../operations.js';
import { pageArgs, pageArgsSchema, pageComplexity, pageOf } from '../page.js';
import { zodInputType } from '../zod-input.js';

/**
 * Folders of sequences and of comment automations: one Node type per kind (each with its area's
 * access rule and loader, so a global id says which kind it is), the same fields, and the same
 * queries and mutations for both, each through its kind's operation.
 */
interface Kind {
  type: FolderType;
  /** The Node type's name, and the root fields' stem. */
  typename: 'SequenceFolder' | 'CommentAutomationFolder';
  /** The REST path the fields mirror. */
  path: string;
  holds: string;
  loader: (ctx: GraphQLContext) => GraphQLContext['loaders']['sequenceFolder'];
}

const kinds: Kind[] = [
  { type: 'sequence', typename: 'SequenceFolder', path: '/v1/sequence-folders', holds: 'sequences', loader: ({ loaders }) => loaders.sequenceFolder },
  {
    type: 'commentAutomation',
    typename: 'CommentAutomationFolder',
    path: '/v1/comment-automation-folders',
    holds: 'comment automations (photo and net alike)',
    loader: ({ loaders }) => loaders.commentAutomationFolder,
  },
];

const folderType = (k: Kind) =>
  builder.node(builder.objectRef<Folder>(k.typename), {
    ...nodeOptions(k.typename, folderOperationsOf[k.type].listFolders.access, k.loader),
    description: `A folder of ${k.holds}, at the top level or in another such folder.`,
    fields: (t) => ({
      rawId: rawIdField(t),
      name: t.exposeString('name'),
      parentId: t.exposeID('parentId', { nullable: true, description: 'The plain id of the folder it is in; null at the top level' }),
      isTrash: t.exposeBoolean('isTrash', { description: 'Whether it is in the trash' }),
      createdAt: t.expose('createdAt', { type: 'DateTime' }),
      updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    }),
  });

export const SequenceFolderType = folderType(kinds[0]!);
export const CommentAutomationFolderType = folderType(kinds[1]!);
const typeOf = { sequence: SequenceFolderType, commentAutomation: CommentAutomationFolderType };

// One input type per body, for both kinds: the bodies are the same.
const ops = folderOperationsOf.sequence;
const CreateFolderInputType = zodInputType('CreateFolderInput', ops.createFolder.body, {
  description: 'The body of POST /v1/sequence-folders and /v1/comment-automation-folders: a name (trimmed, 1 to 255 characters; not unique) and the folder to create it in.',
  types: { parentId: 'ID' },
  descriptions: { parentId: 'The folder to create it in (its global id or plain id, of the same kind); left out or null: the top level' },
});
const UpdateFolderInputType = zodInputType('UpdateFolderInput', ops.updateFolder.body, {
  description: 'The body of PUT /v1/sequence-folders/{id} and /v1/comment-automation-folders/{id}: at least one of name or isTrash.',
});

for (const k of kinds) {
  const op = folderOperationsOf[k.type];
  const FolderRef = typeOf[k.type];
  const stem = k.typename;
  const parentArg = z.preprocess(plainIds(stem), digitId);
  const idArg = (arg: ArgBuilder) => arg.id({ required: true, description: 'Its global id, or its plain digit id (rawId)' }).validate(recordIdArg(stem));

  builder.queryField(`${stem.charAt(0).toLowerCase()}${stem.slice(1)}s`, (t) =>
    t.field({
      type: pageOf(`${stem}Page`, FolderRef),
      description: `Like GET ${k.path}: the folders directly in parentId (left out: the top level), in or out of the trash, by name then id; an unknown parentId is not found.`,
      access: op.listFolders.access,
      args: {
        ...pageArgs(t.arg),
        parentId: t.arg.id({ description: 'The folder whose sub-folders to list (global or plain id); left out: the top level' }),
        isTrash: t.arg.boolean({ required: true, defaultValue: false, description: 'true: only folders in the trash' }),
      },
      validate: pageArgsSchema.extend({ parentId: parentArg.nullish(), isTrash: z.boolean() }),
      complexity: pageComplexity,
      resolve: (_r, args, ctx) =>
        runOperation(op.listFolders, ctx, { query: { page: args.page, perPage: args.perPage, parentId: args.parentId ?? undefined, isTrash: args.isTrash } }),
    }),
  );

  builder.mutationField(`create${stem}`, (t) =>
    t.field({
      type: FolderRef,
      description: `Like POST ${k.path}: a new folder, at the top level or in parentId (an unknown one is not found). The trial and MAC gates apply.`,
      access: op.createFolder.access,
      args: {
        input: t.arg({ type: CreateFolderInputType, required: true }).validate(
          z.preprocess((o) => {
            const given = withoutNulls(o) as Record<string, unknown>;
            return 'parentId' in given ? { ...given, parentId: plainIds(stem)(given.parentId) } : given;
          }, op.createFolder.body),
        ),
      },
      resolve: (_r, { input }, ctx) => runOperation(op.createFolder, ctx, { body: input }),
    }),
  );

  builder.mutationField(`update${stem}`, (t) =>
    t.field({
      type: FolderRef,
      description: `Like PUT ${k.path}/{id}: renames it, or moves it into or out of the trash.`,
      access: op.updateFolder.access,
      args: { id: idArg(t.arg), input: t.arg({ type: UpdateFolderInputType, required: true }).validate(z.preprocess(withoutNulls, op.updateFolder.body)) },
      resolve: (_r, { id, input }, ctx) => runOperation(op.updateFolder, ctx, { params: { id }, body: input }),
    }),
  );

  builder.mutationField(`delete${stem}`, (t) =>
    t.field({
      type: SuccessType,
      description: `Like DELETE ${k.path}/{id}: the folder and every folder below it; what was filed in them moves to the top level.`,
      access: op.deleteFolder.access,
      args: { id: idArg(t.arg) },
      resolve: (_r, { id }, ctx) => runOperation(op.deleteFolder, ctx, { params: { id } }),
    }),
  );
}
