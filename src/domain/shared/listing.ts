/**
 * A listing is a record read with only the columns a page usually shows: a page of contacts, or
 * the tags and conversations of every contact on it, that selects nothing more reads fewer columns
 * and makes smaller objects, which a nested contacts page, with every contact's tags and
 * conversations, feels (bench/README.md). The mark tells a reader of a field a listing lacks
 * to load the whole record instead (src/graphql/listing.ts).
 */
export const listingOnly: unique symbol = Symbol('listing');

/** The record's fields `K`, marked as a listing. */
export type Listing<T, K extends keyof T> = Pick<T, K> & { readonly [listingOnly]: true };

export const isListing = <T extends object, K extends keyof T>(r: T | Listing<T, K>): r is Listing<T, K> => listingOnly in r;

/**
 * The keys of a record's zod shape that a listing lacks: derived from the shape, so a field added
 * to the record later is beyond its listing until someone adds it there (and its column).
 */
export const keysBeyond = <S extends object, K extends keyof S>(shape: S, listing: readonly K[]) =>
  Object.keys(shape).filter((key) => !(listing as readonly PropertyKey[]).includes(key)) as Exclude<keyof S, K>[];
