import { contactTagOperations as contactTags } from '../../domain/tags/contact-tag.operations.js';
import { del, get, post, put } from '../route.js';

/** A contact's tags, and bulk tagging. */
export const contactTagRoutes = [
  get('/v1/contacts/{identifier}/tags', contactTags.list),
  post('/v1/contacts/{identifier}/tags', contactTags.add),
  del('/v1/contacts/{identifier}/tags', contactTags.remove),
  put('/v1/contacts/{identifier}/tags', contactTags.set),
  post('/v1/contacts/{identifier}/tags/by-name', contactTags.addByName),
  post('/v1/contacts/bulk/tags', contactTags.bulkAdd, { errors: [404] }),
];
