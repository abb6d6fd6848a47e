import { contactCustomFieldOperations as values } from '../../domain/custom-fields/contact-custom-field.operations.js';
import { del, get, patch, post, put } from '../route.js';

/** A contact's custom-field values. */
export const contactCustomFieldRoutes = [
  get('/v1/contacts/{identifier}/custom-fields', values.list),
  get('/v1/contacts/{identifier}/custom-fields/{idOrName}', values.get),
  put('/v1/contacts/{identifier}/custom-fields/{idOrName}', values.set),
  post('/v1/contacts/{identifier}/custom-fields/{customFieldId}', values.setLegacy),
  del('/v1/contacts/{identifier}/custom-fields/{idOrName}', values.clear),
  patch('/v1/contacts/{identifier}/custom-fields', values.applyOperations),
  put('/v1/contacts/{identifier}/custom-fields', values.setMany),
  del('/v1/contacts/{identifier}/custom-fields', values.clearAll),
  get('/v1/contacts/find-by-custom-field', values.find),
];
