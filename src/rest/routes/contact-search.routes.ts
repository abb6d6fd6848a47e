import { contactSearchOperations as contactSearch } from '../../domain/contacts/contact-search.operations.js';
import { get, post } from '../route.js';

/** Listing, counting and searching contacts. */
export const contactSearchRoutes = [
  get('/v1/contacts', contactSearch.list),
  get('/v1/contacts/count', contactSearch.count),
  post('/v1/contacts/search', contactSearch.search),
  get('/v1/contacts/filter-fields', contactSearch.listFilterFields),
  post('/v1/contacts/filter-value-labels', contactSearch.resolveFilterValueLabels),
];
