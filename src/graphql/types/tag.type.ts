import type { TagRow } from '../../domain/tags/tag.repository.js';
import { listWorkspaceTags } from '../../domain/tags/tag.service.js';
import { builder } from '../builder.js';
import { nodeOptions, rawIdField } from '../node.js';

export const TagType = builder.node(builder.objectRef<TagRow>('Tag'), {
  ...nodeOptions('Tag', { action: 'read', scope: 'tags' }, ({ loaders }) => loaders.tag),
  fields: (t) => ({
    rawId: rawIdField(t),
    name: t.exposeString('name'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    deletedAt: t.expose('deletedAt', { type: 'DateTime', nullable: true }),
    folderId: t.exposeID('folderId', { nullable: true }),
    workspaceId: t.exposeID('workspaceId'),
  }),
});

builder.queryField('tags', (t) =>
  t.field({
    type: [TagType],
    description: "The workspace's tags, sorted by name (as GET /v1/tags).",
    access: { action: 'read', scope: 'tags' },
    resolve: (_r, _a, { db, who }) => listWorkspaceTags(db, who.workspaceId),
  }),
);
