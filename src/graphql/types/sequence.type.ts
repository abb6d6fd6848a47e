import type { SubscriptionRow } from '../../domain/sequences/sequence.repository.js';
import { builder } from '../builder.js';

export const SequenceSubscriptionType = builder.objectRef<SubscriptionRow>('SequenceSubscription').implement({
  fields: (t) => ({ sequenceId: t.exposeID('sequenceId'), sequenceName: t.exposeString('sequenceName') }),
});

