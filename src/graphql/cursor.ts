import { AppError } from '../errors/catalogue.js';

/** Opaque Relay cursors: base64url of `<kind>:<id>`. Keyset pagination continues below that id. */
export const encodeCursor = (kind: string, id: string) => Buffer.from(`${kind}:${id}`).toString('base64url');

export function decodeCursor(kind: string, cursor: string): number {
  const m = new RegExp(`^${kind}:(\\d{1,10})$`).exec(Buffer.from(cursor, 'base64url').toString());
  if (!m) throw new AppError('invalidRequestData', { data: { issues: [{ message: 'after is not a cursor of this list', path: ['after'] }] } });
  return Number(m[1]);
}
