import type { LeadAdAutomation } from '../../domain/lead-ads/lead-ad.schema.js';
import { deleteNetLeadAd, listLeadAdAutomations } from '../../domain/lead-ads/lead-ad.service.js';
import { builder, SuccessType } from '../builder.js';
import { nodeOptions, rawIdField, recordIdArg } from '../node.js';
import { ReplyType } from './comment-automation.type.js';

export const LeadAdAutomationType = builder.node(builder.objectRef<LeadAdAutomation>('LeadAdAutomation'), {
  ...nodeOptions('LeadAdAutomation', { action: 'read', scope: 'automations' }, ({ loaders }) => loaders.leadAdAutomation),
  description: 'Replies to new leads of social-network lead-ad forms (REST: /v1/net-lead-ads).',
  fields: (t) => ({
    rawId: rawIdField(t),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    name: t.exposeString('name'),
    pageId: t.exposeString('pageId', { nullable: true }),
    formIds: t.exposeStringList('formIds'),
    isActive: t.exposeBoolean('isActive'),
    reply: t.expose('reply', { type: ReplyType }),
  }),
});

builder.queryField('leadAdAutomations', (t) =>
  t.field({
    type: [LeadAdAutomationType],
    description: 'Every lead-ad automation of the workspace, newest first.',
    access: { action: 'read', scope: 'automations' },
    resolve: (_r, _a, { db, who }) => listLeadAdAutomations(db, who.workspaceId),
  }),
);

builder.mutationField('deleteNetLeadAdAutomation', (t) =>
  t.field({
    type: SuccessType,
    description: 'Like DELETE /v1/net-lead-ads/{id}: permanent; replying to its leads stops. A delete: open after the trial or at the MAC limit.',
    access: { action: 'delete', scope: 'automations' },
    args: { id: t.arg.id({ required: true, description: 'Its global id, or its plain digit id (rawId)' }).validate(recordIdArg('LeadAdAutomation')) },
    resolve: (_r, { id }, { db, who }) => deleteNetLeadAd(db, who.workspaceId, id),
  }),
);
