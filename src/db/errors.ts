/**
 * What a failed statement says about a unique index, from either driver: PostgreSQL's error code
 * 23505 names the constraint; SQLite's SQLITE_CONSTRAINT_UNIQUE message names the index or its
 * columns. The text to look the index up in, or null for any other error.
 */
export function uniqueViolation(err: unknown): string | null {
  const e = err as { code?: string; constraint?: string; message?: string } | null | undefined;
  if (e?.code !== '23505' && e?.code !== 'SQLITE_CONSTRAINT_UNIQUE') return null;
  return `${e.constraint ?? ''} ${e.message ?? ''}`;
}
