import type { Scope } from '../../domain/auth/scopes.js';
import { workspaceOperations as workspaces } from '../../domain/workspaces/workspace.operations.js';
import type { Workspace as WorkspaceShape } from '../../domain/workspaces/workspace.schema.js';
import { getWorkspaceCounts, type WorkspaceCounts } from '../../domain/workspaces/workspace.service.js';
import { builder } from '../builder.js';
import { nodeOptions, rawIdField } from '../node.js';
import { runOperation } from '../operations.js';

/**
 * How many records each area holds, read in one statement. Each count needs the scope of its area
 * (as listing those records would): without it that count is null with a FORBIDDEN error.
 */
const WorkspaceCountsType = builder.objectRef<WorkspaceCounts>('WorkspaceCounts').implement({
  fields: (t) => {
    const count = (name: keyof WorkspaceCounts, scope: Scope, description: string) =>
      t.exposeInt(name, { nullable: true, description, access: { action: 'read', scope } });
    return {
      contacts: count('contacts', 'contacts', 'Contacts'),
      tags: count('tags', 'tags', 'Tags (not deleted)'),
      conversations: count('conversations', 'conversations', 'Conversations'),
      commentAutomations: count('commentAutomations', 'automations', 'Comment automations of both channels'),
      leadAdAutomations: count('leadAdAutomations', 'automations', 'Lead-ad automations'),
      dynamicImages: count('dynamicImages', 'dynamic_images', 'Dynamic images'),
      errorLogs: count('errorLogs', 'error_logs', 'Error logs'),
    };
  },
});

export const WorkspaceType = builder.node(builder.objectRef<WorkspaceShape>('Workspace'), {
  ...nodeOptions('Workspace', workspaces.get.access, ({ loaders }) => loaders.workspace),
  description: 'The workspace the token belongs to (GET /v1/workspaces).',
  fields: (t) => ({
    rawId: rawIdField(t),
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
    counts: t.field({
      type: WorkspaceCountsType,
      description: 'Record counts per area, in one SQL statement.',
      resolve: (_w, _a, { db, who }) => getWorkspaceCounts(db, who.workspaceId),
    }),
  }),
});

builder.queryField('workspace', (t) =>
  t.field({
    type: WorkspaceType,
    description: "The token's workspace. Like GET /v1/workspaces, only workspace API tokens may read it.",
    access: workspaces.get.access,
    resolve: (_r, _a, ctx) => runOperation(workspaces.get, ctx),
  }),
);
