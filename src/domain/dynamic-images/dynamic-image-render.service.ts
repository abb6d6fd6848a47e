import { createHash } from 'node:crypto';
import type { Executor } from '../../db/database.js';
import { idNumber } from '../../db/values.js';
import { AppError, notFound } from '../../errors/catalogue.js';
import type { Logger } from '../../observability/logger.js';
import { findContactById } from '../contacts/contact.repository.js';
import { resolveContact } from '../contacts/contact.service.js';
import { contactValues } from '../custom-fields/custom-field.repository.js';
import { fieldsNamed } from './dynamic-image-fields.js';
import { insertErrorLog } from '../error-logs/error-log.repository.js';
import { layoutElements, staticLayerLength } from './dynamic-image-layout.js';
import { linkKey, linkTemplate, signToken, verifyToken } from './dynamic-image-links.js';
import type { DynamicImageRenderer, LayoutElement, RenderRequest } from './dynamic-image-renderer.js';
import type { RenderStore } from './dynamic-image-render-store.js';
import { findDynamicImageById, findDynamicImageForLink } from './dynamic-image.repository.js';
import type { DynamicImage } from './dynamic-image.schema.js';
import { customFieldRefs, type ContactValues } from './dynamic-image-text.js';

/** What rendering needs from the process: built once (app.ts, worker.ts). */
export interface ImageServices {
  renderer: DynamicImageRenderer;
  store: RenderStore;
  /** The public address links start with, the key that signs them (unset: the stored one) and how long a signed link lives. */
  links: { baseUrl: string; secret: string | undefined; ttlSeconds: number };
  /** Renders under way in this process, by hash: a second request for the same picture waits for the first. */
  inflight: Map<string, Promise<Rendered>>;
  logger: Logger;
}

export interface Rendered {
  hash: string;
  /** The picture; null when the caller asked for its address only and it was stored already. */
  png: Uint8Array | null;
  /** Stored under its hash (false when a picture failed: the fallback is not kept for good). */
  stored: boolean;
}

/** Bump when what a hash covers changes: every earlier render becomes unreachable. */
const HASH_VERSION = 1;

const sha256 = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');

/** A template's identity in a hash: its workspace, id and revision (any save changes updatedAt). */
const revisionOf = (workspaceId: number, image: DynamicImage) => [HASH_VERSION, workspaceId, image.id, image.updatedAt];

/**
 * The contact's values for the variables and pictures the template uses, in at most four
 * statements: the contact, the fields its {{cf:...}} name (by id, by name), the contact's values of
 * those fields.
 */
async function valuesFor(db: Executor, workspaceId: number, image: DynamicImage, contactId: number): Promise<ContactValues | null> {
  const contact = await findContactById(db, workspaceId, contactId);
  if (!contact) return null;
  const elements = image.data.elements;
  const named = await fieldsNamed(
    db,
    workspaceId,
    elements.flatMap((e) => (e.type === 'image' ? [] : customFieldRefs(e.text))),
    elements.flatMap((e) => (e.type !== 'qrCode' && e.customFieldId !== '' ? [Number(e.customFieldId)] : [])),
  );
  const stored = await contactValues(db, workspaceId, contactId, named.ids.map(Number));
  return {
    firstName: contact.firstName ?? '',
    lastName: contact.lastName ?? '',
    email: contact.email ?? '',
    phone: contact.phoneNumber ?? '',
    avatar: contact.avatar ?? '',
    fields: new Map([...stored].map(([id, value]) => [String(id), value])),
    fieldOf: named.fieldOf,
  };
}

/** The static layer: the background and the elements below the first that varies per contact. */
function staticLayer(workspaceId: number, image: DynamicImage) {
  const length = staticLayerLength(image);
  const elements = layoutElements(image.data.elements.slice(0, length), null);
  return { length, elements, hash: sha256([...revisionOf(workspaceId, image), 'layer', image.data.backgroundColor, image.backgroundUrl, elements]) };
}

/**
 * The picture of `image` for a contact (null: for nobody, only what every contact sees), from the
 * store when it was drawn before with the same values, else drawn now over the static layer (when
 * it is baked) and stored. Equal values give the same hash, whoever the contact.
 */
export async function renderImage(
  db: Executor,
  services: ImageServices,
  workspaceId: number,
  image: DynamicImage,
  contactId: number | null,
  want: 'picture' | 'address' = 'picture',
): Promise<Rendered> {
  const layer = staticLayer(workspaceId, image);
  let rest: LayoutElement[];
  if (contactId === null) {
    rest = layoutElements(image.data.elements.slice(layer.length), null);
  } else {
    const values = await valuesFor(db, workspaceId, image, contactId);
    if (!values) throw notFound('Contact');
    rest = layoutElements(image.data.elements.slice(layer.length), values);
  }
  const hash = sha256([...revisionOf(workspaceId, image), 'render', image.data.width, image.data.height, layer.hash, rest]);
  // A link only needs to know the render is there (no bytes read); a preview needs the bytes.
  if (want === 'address') {
    if (await services.store.has(db, hash)) return { hash, png: null, stored: true };
  } else {
    const stored = await services.store.read(db, hash);
    if (stored) return { hash, png: stored, stored: true };
  }

  const running = services.inflight.get(hash);
  if (running) return running;
  const render = (async (): Promise<Rendered> => {
    const baked = layer.length > 0 || image.backgroundUrl !== '' || image.data.backgroundColor !== '' ? await services.store.read(db, layer.hash) : null;
    const request: RenderRequest = {
      width: image.data.width,
      height: image.data.height,
      // The baked layer has the colour in it already.
      backgroundColor: baked || image.data.backgroundColor === '' ? null : image.data.backgroundColor,
      base: baked ? { png: baked } : image.backgroundUrl !== '' ? { url: image.backgroundUrl } : null,
      elements: baked ? rest : [...layer.elements, ...rest],
    };
    const outcome = await services.renderer.render(request);
    for (const failure of outcome.failures) {
      await insertErrorLog(db, workspaceId, {
        contactId,
        action: 'dynamicImage',
        detail: `Dynamic image ${image.id} ("${image.name}"): ${failure.error}; the element's fallback was drawn`,
        httpCode: '500',
      });
    }
    if (outcome.failures.length > 0) return { hash, png: outcome.png, stored: false };
    await services.store.write(db, { hash, workspaceId, imageId: Number(image.id), kind: 'render' }, outcome.png);
    return { hash, png: outcome.png, stored: true };
  })();
  services.inflight.set(hash, render);
  try {
    return await render;
  } finally {
    services.inflight.delete(hash);
  }
}

/**
 * Draws and stores an image's static layer, once per template revision (the job a save enqueues).
 * A template with no background and no static element at the bottom has none.
 */
export async function bakeStaticLayer(db: Executor, services: ImageServices, workspaceId: number, imageId: number): Promise<void> {
  const image = await findDynamicImageById(db, workspaceId, imageId);
  if (!image) return;
  const layer = staticLayer(workspaceId, image);
  if (layer.length === 0 && image.backgroundUrl === '' && image.data.backgroundColor === '') return;
  if (await services.store.read(db, layer.hash)) return;
  const outcome = await services.renderer.render({
    width: image.data.width,
    height: image.data.height,
    backgroundColor: image.data.backgroundColor === '' ? null : image.data.backgroundColor,
    base: image.backgroundUrl === '' ? null : { url: image.backgroundUrl },
    elements: layer.elements,
  });
  // A layer drawn with a fallback is not kept: each render draws the layer itself until the
  // pictures answer, and logs why.
  if (outcome.failures.length > 0) return;
  await services.store.write(db, { hash: layer.hash, workspaceId, imageId, kind: 'layer' }, outcome.png);
}

const imageKey = (id: string): number => {
  const key = idNumber(id);
  if (key === null) throw notFound('Dynamic image');
  return key;
};

/** GET /v1/dynamic-images/{id}/render?contact=: the PNG for one contact of the workspace. */
export async function renderPreview(db: Executor, services: ImageServices, workspaceId: number, id: string, contact: string): Promise<Rendered & { png: Uint8Array }> {
  const image = await findDynamicImageById(db, workspaceId, imageKey(id));
  if (!image) throw notFound('Dynamic image');
  const found = await resolveContact(db, workspaceId, contact);
  // Asked for the picture, it always has its bytes.
  return (await renderImage(db, services, workspaceId, image, Number(found.id), 'picture')) as Rendered & { png: Uint8Array };
}

/** The image's public link signed for one contact of the workspace (GraphQL `renderUrl`). */
export async function signedLink(db: Executor, services: ImageServices, workspaceId: number, image: DynamicImage, contact: string): Promise<string> {
  const found = await resolveContact(db, workspaceId, contact);
  const key = await linkKey(db, services.links.secret);
  const expires = Math.floor(Date.now() / 1000) + services.links.ttlSeconds;
  const token = signToken(key, { workspaceId, imageId: Number(image.id) }, Number(found.id), expires);
  return `${linkTemplate(services.links.baseUrl, image.id)}&t=${token}`;
}

/**
 * The public link: the image (404 when it is missing or switched off), the contact its token names
 * (403 when the token is not this image's or has expired; no token: nobody's, only what every
 * contact sees), drawn or found by hash.
 */
export async function renderLink(db: Executor, services: ImageServices, q: { dynamicImageId: string; t?: string }): Promise<Rendered> {
  const found = await findDynamicImageForLink(db, imageKey(q.dynamicImageId));
  if (!found || !found.image.enabled) throw notFound('Dynamic image');
  const { workspaceId, image } = found;
  let contactId: number | null = null;
  if (q.t !== undefined) {
    const key = await linkKey(db, services.links.secret);
    const check = verifyToken(key, { workspaceId, imageId: Number(image.id) }, q.t, Math.floor(Date.now() / 1000));
    if (!check.ok) throw new AppError('FORBIDDEN', { data: { reason: check.reason } });
    contactId = check.contactId;
  }
  return renderImage(db, services, workspaceId, image, contactId, 'address');
}

/** Whether a content address is served (an indexed read; no bytes). */
export const rendered = (db: Executor, services: ImageServices, hash: string): Promise<boolean> => services.store.has(db, hash);

/** The bytes at a content address, or 404. */
export async function readRender(db: Executor, services: ImageServices, hash: string): Promise<Uint8Array> {
  const png = /^[0-9a-f]{64}$/.test(hash) ? await services.store.read(db, hash) : null;
  if (!png) throw notFound('Rendered image');
  return png;
}
