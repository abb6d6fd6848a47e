import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Executor } from '../../db/database.js';
import { serviceSecret } from '../shared/service-secret.js';

/**
 * Public links to dynamic images, for messages: `/dynamic-images?dynamicImageId=<id>&t=<token>`
 * (the real product's shape). The token is signed per contact: `<contactId>.<expiry>.<signature>`,
 * the signature an HMAC-SHA256 of the workspace, image, contact and expiry (Unix seconds) with the
 * service's link key. A token of another image, another contact or past its expiry is refused; it
 * never shows another contact's picture. The answer is a redirect to the render's content address,
 * `/dynamic-images/r/<sha256>.png`, which anyone may cache for good.
 */
export const LINK_PATH = '/dynamic-images';
export const RENDER_PATH_PREFIX = '/dynamic-images/r/';

/** The link an image answers as its `imageUrl`: a bot appends `&t=<token>` for each contact. */
export const linkTemplate = (baseUrl: string, imageId: string) => `${baseUrl}${LINK_PATH}?dynamicImageId=${imageId}`;

/**
 * The service's public address (PUBLIC_BASE_URL), set once at start-up (app.ts, worker.ts): every
 * answer naming an image carries its link, and threading the address through each read that
 * answers images (lists, loaders, nodes) would say the same thing in forty places.
 */
let publicBaseUrl = 'http://localhost:4000';
export const setPublicBaseUrl = (url: string) => {
  publicBaseUrl = url.replace(/\/+$/, '');
};
export const imageLinkOf = (imageId: string) => linkTemplate(publicBaseUrl, imageId);

/** Where a render's bytes are read, by their hash. */
export const renderPath = (hash: string) => `${RENDER_PATH_PREFIX}${hash}.png`;

export interface LinkSubject {
  workspaceId: number;
  imageId: number;
}

const signature = (key: Buffer, s: LinkSubject, contactId: number, expires: number): Buffer =>
  createHmac('sha256', key).update(`v1:${s.workspaceId}:${s.imageId}:${contactId}:${expires}`).digest();

/** A token for one contact's picture of one image, good until `expires` (Unix seconds). */
export function signToken(key: Buffer, subject: LinkSubject, contactId: number, expires: number): string {
  return `${contactId}.${expires}.${signature(key, subject, contactId, expires).toString('base64url')}`;
}

export type TokenCheck = { ok: true; contactId: number } | { ok: false; reason: string };

const TOKEN = /^(\d{1,15})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

/**
 * Checks a token for this image: its signature (compared in constant time), then its expiry. The
 * reason words the 403 for whoever pasted the link.
 */
export function verifyToken(key: Buffer, subject: LinkSubject, token: string, nowSeconds: number): TokenCheck {
  const m = TOKEN.exec(token);
  if (!m) return { ok: false, reason: 't is not a link token of this service' };
  const contactId = Number(m[1]);
  const expires = Number(m[2]);
  const expected = signature(key, subject, contactId, expires);
  const given = Buffer.from(m[3]!, 'base64url');
  // The 43rd character carries two spare bits: only the canonical spelling of a signature is taken,
  // so a link has one form (and a changed last character is never the same signature).
  const canonical = given.toString('base64url') === m[3];
  if (!canonical || given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 't was not signed for this image' };
  if (expires < nowSeconds) return { ok: false, reason: `t expired at ${new Date(expires * 1000).toISOString()}` };
  return { ok: true, contactId };
}

/**
 * The link key: `configured` (DYNAMIC_IMAGE_LINK_SECRET) when set, else the key the service made
 * for its image links (service-secret.ts).
 */
export function linkKey(db: Executor, configured: string | undefined): Promise<Buffer> {
  if (configured) return Promise.resolve(Buffer.from(configured, 'utf8'));
  return serviceSecret(db, 'dynamicImageLinks');
}
