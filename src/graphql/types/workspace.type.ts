import { builder } from '../builder.js';
import { workspaceTokenSchemes } from '../../domain/auth/principal.js';
import { assertAccess } from '../../domain/auth/access.js';
import { getWorkspace, presentWorkspace } from '../../domain/workspaces/workspace.service.js';
import type { Workspace as WorkspaceShape } from '../../domain/workspaces/workspace.schema.js';

export const WorkspaceType = builder.objectRef<WorkspaceShape>('Workspace').implement({
  description: 'The workspace the token belongs to.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    defaultReply: t.exposeString('defaultReply'),
    targetCountry: t.exposeString('targetCountry'),
    language: t.exposeString('language'),
    timezone: t.exposeString('timezone'),
    brandColor: t.exposeString('brandColor'),
    logo: t.exposeString('logo'),
    ownerId: t.exposeString('ownerId'),
    developmentMode: t.exposeBoolean('developmentMode'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

builder.queryField('workspace', (t) =>
  t.field({
    type: WorkspaceType,
    description: 'The token\'s workspace. Like GET /v1/workspaces, only workspace API tokens may read it.',
    resolve: async (_root, _args, { db, who }) => {
      await assertAccess(db, who, { action: 'read', scope: 'workspace', schemes: workspaceTokenSchemes });
      return presentWorkspace(await getWorkspace(db, who.workspaceId));
    },
  }),
);
