import type { ObjectRef } from '@pothos/core';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE, pageArgsSchema, type Page } from '../domain/shared/pagination.js';
import type { ArgBuilder } from './args.js';
import { builder } from './builder.js';

/**
 * Page-number lists, as REST pages them: `page` 1 to 9007199254740991 (SafeInt, beyond GraphQL's
 * 32-bit Int), `perPage` 1 to 50, checked by the domain's `pageArgsSchema` (422 outside, never
 * clamped), answered as `{data, pageCount}`.
 */
export { pageArgsSchema };

export const pageArgs = (arg: ArgBuilder) => ({
  page: arg({ type: 'SafeInt', required: true, defaultValue: 1, description: 'Page number, starting at 1' }),
  perPage: arg.int({ required: true, defaultValue: DEFAULT_PER_PAGE, description: `Items per page, 1 to ${MAX_PER_PAGE}` }),
});

/** Cost of a page: its selection once per item `perPage` asks for (see builder.ts). */
export const pageComplexity = (args: { perPage?: number | null }) => ({ field: 1, multiplier: args.perPage ?? DEFAULT_PER_PAGE });

export const pageOf = <T>(name: string, item: ObjectRef<any, T>) =>
  builder.objectRef<Page<T>>(name).implement({
    fields: (t) => ({
      // The page field already multiplies by perPage; the list must not multiply again.
      data: t.field({ type: [item], complexity: { field: 0, multiplier: 1 }, resolve: (p) => p.data }),
      pageCount: t.exposeInt('pageCount', { description: 'ceil(total / perPage); 0 when there are no rows' }),
    }),
  });
