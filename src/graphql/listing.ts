import type DataLoader from 'dataloader';
import type { FieldNode, GraphQLResolveInfo } from 'graphql';
import { isListing, type Listing } from '../domain/shared/listing.js';
import { notFound } from '../errors/catalogue.js';
import type { GraphQLContext } from './context.js';
import { selectedFieldNames } from './selection.js';

/**
 * The GraphQL side of a record type's listings (src/domain/shared/listing.ts). A field that reads
 * records chooses listings when `selectsBeyond` says the query asks for no field a listing lacks;
 * the type resolves each such field with `beyond(key)`.
 *
 * `beyond` is a safeguard: under a listing it loads the whole record through `whole` (one batched
 * statement), so a field the selection check missed would cost a statement, never a wrong value.
 * A record deleted since its listing was read is not found, as it would be if asked for now.
 */
export function listingsOf<T extends { id: string }, B extends keyof T>(resource: string, beyondKeys: readonly B[], whole: (ctx: GraphQLContext) => DataLoader<number, T | null>) {
  type Row = (T | Listing<T, Exclude<keyof T, B>>) & { id: string };
  const beyondNames = new Set<PropertyKey>(beyondKeys);
  // A field's nodes are the same objects for every record a list resolves it on, and, where the
  // parsed document is cached, for every request that sends the query: the walk runs once for each.
  const answers = new WeakMap<readonly FieldNode[], boolean>();
  return {
    /**
     * Whether the query selects, at `path` below the field being resolved, a field a listing lacks.
     * A field passes the same `path` every time (the answer is kept per field).
     */
    selectsBeyond(info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>, path: readonly string[] = []): boolean {
      let answer = answers.get(info.fieldNodes);
      if (answer === undefined) {
        answer = [...selectedFieldNames(info, path)].some((name) => beyondNames.has(name));
        answers.set(info.fieldNodes, answer);
      }
      return answer;
    },
    /** The resolver of a field a listing lacks. */
    beyond:
      <F extends B>(key: F) =>
      (r: Row, _args: unknown, ctx: GraphQLContext): T[F] | Promise<T[F]> => {
        if (!isListing(r)) return r[key];
        return whole(ctx)
          .load(Number(r.id))
          .then((record) => {
            if (!record) throw notFound(resource);
            return record[key];
          });
      },
  };
}
