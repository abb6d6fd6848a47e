import { commentAutomationSchema, createPhotoCommentInput } from '../../domain/automations/comment-automation.schema.js';
import { createPhotoCommentAutomation, getCommentAutomation } from '../../domain/automations/comment-automation.service.js';
import { deleteNetLeadAd } from '../../domain/lead-ads/lead-ad.service.js';
import { idParams, successSchema } from '../../domain/shared/schemas.js';
import { defineRoute } from '../route.js';

export const automationRoutes = [
  defineRoute({
    method: 'POST',
    path: '/v1/photo-comments',
    operationId: 'photoComments.create',
    summary: 'Create an automation that replies to or hides comments on photo-network media',
    tag: 'Comment automations',
    access: { action: 'write', scope: 'automations' },
    body: createPhotoCommentInput,
    response: { status: 201, description: 'The new automation', schema: commentAutomationSchema },
    errors: [400, 401, 403, 413, 415, 422, 429, 500],
    handler: ({ db, who, body }) => createPhotoCommentAutomation(db, who.workspaceId, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/net-comments/{id}',
    operationId: 'netComments.get',
    summary: 'A social-network comment automation',
    tag: 'Comment automations',
    access: { action: 'read', scope: 'automations' },
    params: idParams,
    response: { status: 200, description: 'The automation, with folderId (null at root)', schema: commentAutomationSchema },
    errors: [400, 401, 403, 404, 422, 429, 500],
    handler: ({ db, who, params }) => getCommentAutomation(db, who.workspaceId, 'net', params.id),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/net-lead-ads/{id}',
    operationId: 'netLeadAds.delete',
    summary: 'Delete a lead-ad automation permanently',
    tag: 'Lead-ad automations',
    access: { action: 'delete', scope: 'automations' },
    params: idParams,
    response: { status: 200, description: 'Deleted', schema: successSchema },
    errors: [400, 401, 403, 404, 422, 429, 500],
    handler: ({ db, who, params }) => deleteNetLeadAd(db, who.workspaceId, params.id),
  }),
];
