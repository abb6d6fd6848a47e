import { isHttpUrl, type DynamicImage } from './dynamic-image.schema.js';
import { fillText, hasVariables, type ContactValues } from './dynamic-image-text.js';
import type { LayoutElement } from './dynamic-image-renderer.js';

type Element = DynamicImage['data']['elements'][number];

/**
 * Whether an element is drawn differently per contact: a picture of the contact (avatar, a URL in
 * a custom field), a text of a custom field's value or with variables, a QR code with variables.
 */
export function variesPerContact(e: Element): boolean {
  if (e.type === 'image') return e.imageType !== 'url';
  if (e.type === 'text') return e.customFieldId !== '' || hasVariables(e.text);
  return hasVariables(e.text);
}

/**
 * How many elements, from the bottom, are the same for every contact: with the background they
 * form the static layer, baked once per template revision, over which each contact's render draws
 * the rest. Elements above the first one that varies stay in the rest even when they do not vary,
 * so the order of drawing is kept.
 */
export function staticLayerLength(image: DynamicImage): number {
  const first = image.data.elements.findIndex(variesPerContact);
  return first === -1 ? image.data.elements.length : first;
}

/** A contact's picture URL when it is an http(s) URL; a value that is not one is no picture. */
const pictureUrl = (value: string | undefined): string[] => (value !== undefined && isHttpUrl(value.trim()) ? [value.trim()] : []);

/**
 * The elements as drawn for a contact: variables filled, pictures as the URLs to try in order.
 * Without a contact (`values` null: a public link without a token) the elements that vary are left
 * out, so only what every contact sees is drawn.
 */
export function layoutElements(elements: readonly Element[], values: ContactValues | null): LayoutElement[] {
  const out: LayoutElement[] = [];
  for (const e of elements) {
    if (values === null && variesPerContact(e)) continue;
    const box = { x: e.x, y: e.y, width: e.width, height: e.height };
    if (e.type === 'image') {
      const own = values === null || e.imageType === 'url' ? [] : e.imageType === 'customField' ? pictureUrl(values.fields.get(e.customFieldId)) : pictureUrl(values.avatar);
      const urls = e.url === '' ? own : [...own, e.url];
      out.push({ kind: 'picture', ...box, style: e.imageStyle, urls });
    } else if (e.type === 'text') {
      const filled = values === null ? e.text : fillText(e.text, values, e.fallback);
      const fieldValue = e.customFieldId === '' || values === null ? '' : (values.fields.get(e.customFieldId) ?? '');
      const text = fieldValue.trim() !== '' ? fieldValue : filled;
      out.push({
        kind: 'text',
        ...box,
        text: e.uppercase ? text.toUpperCase() : text,
        fontFamily: e.fontFamily,
        fontSize: e.fontSize,
        color: e.color,
        align: e.align,
        bold: e.bold,
        italic: e.italic,
      });
    } else {
      out.push({ kind: 'qrCode', ...box, text: values === null ? e.text : fillText(e.text, values, ''), color: e.color });
    }
  }
  return out;
}
