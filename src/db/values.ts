/** Conversions at the repository boundary, so both engines look alike to services. */

export const toBool = (v: number | boolean | null | undefined): boolean => v === true || v === 1;

/** Booleans as 0/1: better-sqlite3 cannot bind booleans and PostgreSQL reads '0'/'1' as boolean. */
export const bool = (v: boolean): number => (v ? 1 : 0);

export const nowIso = (): string => new Date().toISOString();

export const idString = (id: number): string => String(id);

/** Parses a digit-string id; anything beyond a 32-bit key cannot exist, so it is simply "not found". */
export const idNumber = (id: string): number | null => {
  if (!/^\d+$/.test(id)) return null;
  const n = Number(id);
  return n >= 1 && n <= 2_147_483_647 ? n : null;
};

export const parseJson = <T>(text: string): T => JSON.parse(text) as T;

/** Escapes LIKE wildcards so a user's `%` or `_` matches literally (used with `escape '\'`). */
export const likeContains = (needle: string): string => `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
