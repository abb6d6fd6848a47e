import { deleteNetLeadAd } from '../../domain/lead-ads/lead-ad.service.js';
import { idParams, successSchema } from '../../domain/shared/schemas.js';
import { defineRoute } from '../route.js';

export const leadAdRoutes = [
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
    examples: { params: { id: '2' }, response: { success: true } },
    handler: ({ db, who, params }) => deleteNetLeadAd(db, who.workspaceId, params.id),
  }),
];
