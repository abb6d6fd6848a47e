import { createHash } from 'node:crypto';
import { z } from 'zod';
import { invalidRequestData } from '../../errors/validation.js';
import type { MessageFilters } from './message.schema.js';

/**
 * Cursors of a contact's message list (newest first by id), made as the conversation list's are
 * (src/domain/conversations/conversation.cursor.ts): base64url of JSON with
 * - `i`: the position, a message id; the page continues strictly past it;
 * - `f`: a hash of the filters it was made with (another filter set is refused, 422 at the cursor);
 * - `d`: `next` (older messages) or `prev` (newer ones).
 * Anything else is 422. A cursor names no contact: one made on another contact's list only moves
 * within the list it is used on (the contact of the path, of the caller's workspace).
 */
export type Direction = 'next' | 'prev';

const wire = z.strictObject({
  d: z.enum(['next', 'prev']),
  // One beyond a 32-bit key: an empty page's position sits one id past its neighbour.
  i: z.number().int().min(0).max(2_147_483_648),
  f: z.string().regex(/^[0-9a-f]{16}$/),
});

export function messageFiltersHash(filters: MessageFilters): string {
  const canonical = Object.entries(filters)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return createHash('sha256').update(JSON.stringify(['messages', canonical])).digest('hex').slice(0, 16);
}

export const encodeMessageCursor = (id: number, hash: string, direction: Direction): string =>
  Buffer.from(JSON.stringify({ d: direction, i: id, f: hash })).toString('base64url');

export function decodeMessageCursor(text: string, hash: string, path: (string | number)[]): { id: number; direction: Direction } {
  const name = String(path.at(-1));
  let parsed: z.infer<typeof wire> | null = null;
  if (/^[A-Za-z0-9_-]+$/.test(text)) {
    try {
      const result = wire.safeParse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
      if (result.success) parsed = result.data;
    } catch {
      parsed = null;
    }
  }
  if (!parsed) throw invalidRequestData([{ message: `${name} is not a cursor of this list`, path }]);
  if (parsed.f !== hash) throw invalidRequestData([{ message: `${name} was made with other filters: use the filters of the list it came from`, path }]);
  return { id: parsed.i, direction: parsed.d };
}
