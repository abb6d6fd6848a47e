import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed, expiring addresses of contact files on this server, in place of a storage service's
 * presigned URLs: `PUT /files/contact-imports/<fileId>?expires=<unix seconds>&signature=<sig>`
 * takes an import's bytes, `GET /files/contact-exports/<fileId>?...` gives an export's. The
 * signature is an HMAC-SHA256 of the purpose, workspace, file and expiry with the service's key
 * (service-secret.ts), compared in constant time: whoever holds the address may do that one
 * thing with that one file until it expires, and nothing else.
 */
export const FILES_PREFIX = '/files/';
export type FilePurpose = 'contact-imports' | 'contact-exports';

/** An upload address is good this long (the client PUTs the bytes at once). */
export const UPLOAD_LINK_SECONDS = 15 * 60;
/** A download address: long enough to start a large download, short enough not to be shared around. */
export const DOWNLOAD_LINK_SECONDS = 15 * 60;

interface Subject {
  purpose: FilePurpose;
  workspaceId: number;
  fileId: number;
}

const signature = (key: Buffer, s: Subject, expires: number): Buffer =>
  createHmac('sha256', key).update(`v1:${s.purpose}:${s.workspaceId}:${s.fileId}:${expires}`).digest();

export function signedFilePath(key: Buffer, s: Subject, expires: number): string {
  return `${FILES_PREFIX}${s.purpose}/${s.fileId}?expires=${expires}&signature=${signature(key, s, expires).toString('base64url')}`;
}

/** The purpose and file an address names (before its signature is checked), or null. */
export function fileOfPath(path: string): { purpose: FilePurpose; fileId: number } | null {
  const m = /^\/files\/(contact-imports|contact-exports)\/(\d{1,15})$/.exec(path);
  return m ? { purpose: m[1] as FilePurpose, fileId: Number(m[2]) } : null;
}

export type LinkCheck = { ok: true } | { ok: false; reason: string };

/** Checks an address's query (`expires`, `signature`) for the subject: signature first, then expiry. */
export function verifyFileLink(key: Buffer, s: Subject, search: string, nowSeconds: number): LinkCheck {
  const q = new URLSearchParams(search);
  const expiresText = q.get('expires') ?? '';
  const given = q.get('signature') ?? '';
  if (!/^\d{1,12}$/.test(expiresText) || !/^[A-Za-z0-9_-]{43}$/.test(given)) return { ok: false, reason: 'The address is not a signed file address of this service' };
  const expires = Number(expiresText);
  const expected = signature(key, s, expires);
  const bytes = Buffer.from(given, 'base64url');
  if (bytes.toString('base64url') !== given || bytes.length !== expected.length || !timingSafeEqual(bytes, expected)) return { ok: false, reason: 'The signature does not match this file' };
  if (expires < nowSeconds) return { ok: false, reason: `The address expired at ${new Date(expires * 1000).toISOString()}; ask for a new one` };
  return { ok: true };
}
