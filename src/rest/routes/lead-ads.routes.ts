import { leadAdOperations as leadAds } from '../../domain/lead-ads/lead-ad.operations.js';
import { del, get, patch, post } from '../route.js';

/** Lead-ad automations, and the pages and forms they answer. */
export const leadAdRoutes = [
  get('/v1/net-lead-ads', leadAds.list),
  post('/v1/net-lead-ads', leadAds.create, { status: 201, location: (a: { id: string }) => `/v1/net-lead-ads/${a.id}` }),
  get('/v1/net-lead-ads/pages', leadAds.listPages),
  get('/v1/net-lead-ads/forms', leadAds.listForms, { errors: [404] }),
  get('/v1/net-lead-ads/{id}', leadAds.get),
  patch('/v1/net-lead-ads/{id}', leadAds.update),
  del('/v1/net-lead-ads/{id}', leadAds.delete),
];
