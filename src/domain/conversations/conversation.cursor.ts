import { createHash } from 'node:crypto';
import { z } from 'zod';
import { invalidRequestData } from '../../errors/validation.js';
import type { ConversationFilters } from './conversation.schema.js';

/**
 * Cursors of the conversation list. A position in the list's order (last activity, then id, both
 * newest first) is `{at, id}`: the page continues strictly past it. A cursor is base64url of JSON:
 *
 * - `a`, `i`: the position (the last activity instant and id of a row);
 * - `f`: a hash of the filters it was made with. A cursor used with other filters would continue a
 *   list it was not taken from (rows repeated or skipped), so it is refused: 422 at the cursor.
 * - `d` (REST only): `next` (older rows) or `prev` (newer rows). GraphQL's edge cursors carry only
 *   the position, since `after` and `before` say the direction; so REST and GraphQL cursors are not
 *   interchangeable.
 *
 * Anything else (not base64url JSON of exactly these keys) is 422 too. Cursors are not signed: a
 * made-up position of the right shape only moves within the caller's own workspace's list.
 */
export interface Position {
  at: string;
  id: number;
}

export type Direction = 'next' | 'prev';

const wire = z.strictObject({
  d: z.enum(['next', 'prev']).optional(),
  a: z.iso.datetime(),
  // One beyond a 32-bit key: an empty page's position sits one id past its neighbour (see the service).
  i: z.number().int().min(0).max(2_147_483_648),
  f: z.string().regex(/^[0-9a-f]{16}$/),
});

/** The filters' hash: sha256 of their canonical JSON (keys sorted, absent ones left out), 16 hex digits. */
export function filtersHash(filters: ConversationFilters): string {
  const canonical = Object.entries(filters)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex').slice(0, 16);
}

export function encodeCursor(position: Position, hash: string, direction?: Direction): string {
  return Buffer.from(JSON.stringify({ ...(direction && { d: direction }), a: position.at, i: position.id, f: hash })).toString('base64url');
}

/**
 * The cursor's position (and direction, required on REST, refused on GraphQL), or 422 at `path`
 * (`['query', 'cursor']`, `['after']`): `<name> is not a cursor of this list` when it cannot be read,
 * `<name> was made with other filters` when the hash differs.
 */
export function decodeCursor(text: string, hash: string, path: (string | number)[], withDirection: boolean): Position & { direction: Direction } {
  const name = String(path.at(-1));
  let parsed: z.infer<typeof wire> | null = null;
  if (/^[A-Za-z0-9_-]+$/.test(text)) {
    try {
      const result = wire.safeParse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
      if (result.success && (result.data.d !== undefined) === withDirection) parsed = result.data;
    } catch {
      parsed = null;
    }
  }
  if (!parsed) throw invalidRequestData([{ message: `${name} is not a cursor of this list`, path }]);
  if (parsed.f !== hash) throw invalidRequestData([{ message: `${name} was made with other filters: use the filters of the list it came from`, path }]);
  return { at: parsed.a, id: parsed.i, direction: parsed.d ?? 'next' };
}
