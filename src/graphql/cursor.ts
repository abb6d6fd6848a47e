import { AppError } from '../errors/catalogue.js';

/**
 * Opaque Relay cursors: base64url of `<list>:<key>`. The list name makes one list's cursor useless
 * for another; the key is where the next page continues (an id, or a creation time and an id).
 */
export interface CursorKind<T, K> {
  list: string;
  key: (row: T) => string;
  /** The key parsed back, or null when it is not a key of this list. */
  parse: (key: string) => K | null;
}

const notACursor = () => new AppError('invalidRequestData', { data: { issues: [{ message: 'after is not a cursor of this list', path: ['after'] }] } });

export const encodeCursor = <T>(kind: CursorKind<T, unknown>, row: T) => Buffer.from(`${kind.list}:${kind.key(row)}`).toString('base64url');

export function decodeCursor<K>(kind: CursorKind<never, K>, cursor: string): K {
  const text = Buffer.from(cursor, 'base64url').toString();
  const prefix = `${kind.list}:`;
  const key = text.startsWith(prefix) ? kind.parse(text.slice(prefix.length)) : null;
  if (key === null) throw notACursor();
  return key;
}

const idPattern = /^\d{1,10}$/;

/** Lists ordered by id, newest first: the cursor holds the last id. */
export const byId = (list: string): CursorKind<{ id: string }, number> => ({
  list,
  key: (row) => row.id,
  // Ids are int4 on PostgreSQL: a larger number is no cursor of ours (and would fail there as a 500).
  parse: (key) => (idPattern.test(key) && Number(key) <= 2_147_483_647 ? Number(key) : null),
});

/** Lists ordered by creation time, then id, newest first: the cursor holds both. */
export const byCreatedAt = (list: string): CursorKind<{ id: string; createdAt: string }, { createdAt: string; id: number }> => ({
  list,
  key: (row) => `${row.createdAt}|${row.id}`,
  parse: (key) => {
    const m = /^(.{1,40})\|(\d{1,10})$/.exec(key);
    return m && !Number.isNaN(Date.parse(m[1])) ? { createdAt: m[1], id: Number(m[2]) } : null;
  },
});
