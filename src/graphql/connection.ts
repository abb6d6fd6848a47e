import { z } from 'zod';
import { CursorEdge } from '../domain/shared/edge.js';
import { decodeCursor, encodeCursor, type CursorKind } from './cursor.js';

/**
 * Relay connections over keyset pagination (newest first). `first` defaults to 20 and is at
 * most 100: a larger value is a 422, never clamped. Only forward pagination exists, so `last` and
 * `before` (which the Relay plugin adds to every connection) are refused rather than ignored.
 */
export const DEFAULT_FIRST = 20;
export const MAX_FIRST = 100;

const backwards = 'Only forward pagination is supported: use first and after';

/** Arguments of every connection field; a field adds its own filters with `.extend`. */
export const connectionArgs = z.object({
  first: z
    .number()
    .int()
    .min(1, 'first must be at least 1')
    .max(MAX_FIRST, `first must be at most ${MAX_FIRST} (list-argument cap)`)
    .nullish()
    .transform((v) => v ?? DEFAULT_FIRST),
  after: z.string().max(200).nullish(),
  last: z.null({ error: backwards }).optional(),
  before: z.null({ error: backwards }).optional(),
});

/** Cost of a connection: its selection once per item `first` asks for (see builder.ts). */
export const connectionComplexity = (args: { first?: number | null }) => ({ field: 1, multiplier: args.first ?? DEFAULT_FIRST });

export interface KeysetWindow<K> {
  limit: number;
  /** Continue after this key (older than it). */
  after?: K;
}

/**
 * One page of a keyset connection: asks `load` for one row more than `first` to learn whether a
 * next page exists. The cursor kind names the list, so one list's cursor is refused by another.
 */
export async function keysetConnection<T, K>(
  kind: CursorKind<T, K>,
  args: { first?: number | null; after?: string | null },
  load: (window: KeysetWindow<K>) => Promise<T[]>,
) {
  const first = args.first ?? DEFAULT_FIRST;
  const rows = await load({ limit: first + 1, after: args.after ? decodeCursor(kind as CursorKind<never, K>, args.after) : undefined });
  const encode = (node: T) => encodeCursor(kind, node);
  const edges = rows.slice(0, first).map((node) => new CursorEdge(node, encode));
  return {
    edges,
    pageInfo: {
      hasNextPage: rows.length > first,
      hasPreviousPage: Boolean(args.after),
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}
