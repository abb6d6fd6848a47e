import { contactSequenceOperations as contactSequences } from '../../domain/sequences/contact-sequence.operations.js';
import { del, get, post, put } from '../route.js';

/** A contact's sequence subscriptions, and bulk subscribing. */
export const contactSequenceRoutes = [
  get('/v1/contacts/{identifier}/sequences', contactSequences.list),
  post('/v1/contacts/{identifier}/sequences', contactSequences.subscribe),
  del('/v1/contacts/{identifier}/sequences', contactSequences.unsubscribe),
  put('/v1/contacts/{identifier}/sequences', contactSequences.set),
  post('/v1/contacts/bulk/sequences', contactSequences.bulkSubscribe, { errors: [404] }),
];
