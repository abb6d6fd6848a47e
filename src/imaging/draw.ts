import { createCanvas, Image, type SKRSContext2D } from '@napi-rs/canvas';
import QRCode from 'qrcode';
import { drawableText, fontShorthand, registerFonts } from './fonts.js';
import { encodePng } from './png-encode.js';
import type { RenderBox, RenderElement, RenderResult, RenderSpec } from './render-spec.js';
import { LINE_HEIGHT, layoutText } from './text-layout.js';

/** Corner radius of `rounded` pictures, as a share of the drawn picture's shorter side. */
const ROUNDED_RADIUS = 0.12;
/** Light modules around a QR code, in modules (the standard asks 4; 2 reads fine on a plain background and leaves more room). */
const QR_QUIET_ZONE = 2;
/** The drawing core's own memory bound (a 4096 x 4096 canvas, as the layout schema allows), whatever the caller checked. */
const MAX_PIXELS = 4096 * 4096;

export type Picture = InstanceType<typeof Image>;

/**
 * Draws a resolved layout and encodes it as PNG. Synchronous: it runs in a worker thread. A picture
 * that does not decode never throws: it is reported in `undecodable` and the element's next picture
 * is tried. Every picture object it made is appended to `made`, when given: the library keeps a
 * reference on each until its load event has run, and a thread that ends before then leaks it
 * (see render.worker.ts).
 */
export function drawSpec(spec: RenderSpec, made?: Picture[]): RenderResult {
  const width = Math.round(spec.width);
  const height = Math.round(spec.height);
  if (!(width >= 1 && height >= 1 && width * height <= MAX_PIXELS)) {
    throw new RangeError(`a canvas of ${spec.width}x${spec.height} is outside 1..${MAX_PIXELS} pixels`);
  }
  registerFonts();
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  // The default follows the host's language, which would make shaping depend on the machine.
  ctx.lang = 'en';
  ctx.imageSmoothingQuality = 'high';
  const undecodable: number[] = [];

  const decode = (bytes: Uint8Array) => decodePicture(bytes, made);
  if (spec.backgroundColor) {
    ctx.fillStyle = spec.backgroundColor;
    ctx.fillRect(0, 0, width, height);
  }
  if (spec.base) {
    const base = decode(spec.base);
    if (base) drawCover(ctx, base, width, height);
    else undecodable.push(-1);
  }
  spec.elements.forEach((element, index) => {
    if (!(element.width > 0 && element.height > 0)) return;
    ctx.save();
    if (element.kind === 'picture') {
      if (!drawPictureElement(ctx, element, decode)) undecodable.push(index);
    } else if (element.kind === 'text') drawText(ctx, element);
    else drawQrCode(ctx, element);
    ctx.restore();
  });

  const pixels = ctx.getImageData(0, 0, width, height).data;
  // One row filter (Up: zeroes flat areas, smooths photographs) and zlib's fastest level and
  // run-length strategy (png-encode.ts): the canvas library's own encoder (libpng trying every
  // filter at level 6) was slow on photographs; this is several times faster, for files somewhat
  // larger on photographs and alike on flat designs (bench/README.md).
  const png = encodePng(pixels, width, height);
  return { png, undecodable };
}

const startsWith = (bytes: Uint8Array, at: number, ascii: string) => {
  for (let i = 0; i < ascii.length; i++) if (bytes[at + i] !== ascii.charCodeAt(i)) return false;
  return true;
};

/**
 * Raster formats only, told by their signature. SVG is refused: the library would render it, and
 * an SVG can refer to other resources and cost any amount of drawing.
 */
function isRasterPicture(bytes: Uint8Array): boolean {
  return (
    startsWith(bytes, 0, '\x89PNG\r\n\x1a\n') ||
    startsWith(bytes, 0, '\xff\xd8\xff') ||
    startsWith(bytes, 0, 'GIF87a') ||
    startsWith(bytes, 0, 'GIF89a') ||
    (startsWith(bytes, 0, 'RIFF') && startsWith(bytes, 8, 'WEBP')) ||
    startsWith(bytes, 0, 'BM') ||
    (startsWith(bytes, 4, 'ftyp') && (startsWith(bytes, 8, 'avif') || startsWith(bytes, 8, 'avis')))
  );
}

/**
 * The picture, or null when its bytes are not a raster picture the library reads. Setting `src`
 * reads the header at once (the pixels are decoded when drawn); a header it cannot read leaves the
 * size at 0.
 */
function decodePicture(bytes: Uint8Array, made?: Picture[]): Picture | null {
  if (!isRasterPicture(bytes)) return null;
  const picture = new Image();
  made?.push(picture);
  try {
    picture.src = bytes;
  } catch {
    return null;
  }
  return picture.width > 0 && picture.height > 0 ? picture : null;
}

/** Scaled to cover the canvas, centred, the overflow cropped. */
function drawCover(ctx: SKRSContext2D, picture: Picture, width: number, height: number): void {
  const scale = Math.max(width / picture.width, height / picture.height);
  const w = picture.width * scale;
  const h = picture.height * scale;
  ctx.drawImage(picture, (width - w) / 2, (height - h) / 2, w, h);
}

/** Draws the element's first picture that decodes; false when its first one did not. */
function drawPictureElement(ctx: SKRSContext2D, element: Extract<RenderElement, { kind: 'picture' }>, decode: (bytes: Uint8Array) => Picture | null): boolean {
  let firstDecoded = true;
  for (const [i, bytes] of element.pictures.entries()) {
    const picture = decode(bytes);
    if (!picture) {
      if (i === 0) firstDecoded = false;
      continue;
    }
    drawFitted(ctx, picture, element, element.style);
    break;
  }
  return firstDecoded;
}

/** Scaled to fit the box whole (aspect kept, centred), clipped to the style's shape. */
function drawFitted(ctx: SKRSContext2D, picture: Picture, box: RenderBox, style: 'square' | 'circle' | 'rounded'): void {
  const scale = Math.min(box.width / picture.width, box.height / picture.height);
  const w = picture.width * scale;
  const h = picture.height * scale;
  const x = box.x + (box.width - w) / 2;
  const y = box.y + (box.height - h) / 2;
  ctx.beginPath();
  if (style === 'circle') {
    ctx.arc(box.x + box.width / 2, box.y + box.height / 2, Math.min(box.width, box.height) / 2, 0, Math.PI * 2);
  } else if (style === 'rounded') {
    // Rounded on the picture as drawn: on the box, the corners of a picture narrower than its box would show none.
    ctx.roundRect(x, y, w, h, Math.min(w, h) * ROUNDED_RADIUS);
  } else {
    ctx.rect(box.x, box.y, box.width, box.height);
  }
  ctx.clip();
  ctx.drawImage(picture, x, y, w, h);
}

function clipToBox(ctx: SKRSContext2D, box: RenderBox): void {
  ctx.beginPath();
  ctx.rect(box.x, box.y, box.width, box.height);
  ctx.clip();
}

function drawText(ctx: SKRSContext2D, element: Extract<RenderElement, { kind: 'text' }>): void {
  const text = drawableText(element.fontFamily, element.text);
  if (text.trim() === '' || !(element.fontSize > 0)) return;
  ctx.font = fontShorthand(element.fontFamily, element.fontSize, element.bold, element.italic);
  ctx.fillStyle = element.color;
  ctx.textAlign = 'left';
  // The middle of the em box at the middle of the line box: the 0.2 x fontSize of leading is split above and below.
  ctx.textBaseline = 'middle';
  clipToBox(ctx, element);
  const lines = layoutText(
    { text, width: element.width, height: element.height, fontSize: element.fontSize, align: element.align },
    (s) => ctx.measureText(s).width,
  );
  for (const line of lines) {
    if (line.text !== '') ctx.fillText(line.text, element.x + line.x, element.y + line.top + (element.fontSize * LINE_HEIGHT) / 2);
  }
}

/**
 * The QR code of the text (error correction M) in `color` on transparent, as the largest square
 * that fits the box, centred. Whole-pixel modules where the box allows, so modules have no
 * blurred seams. Text a QR code cannot hold (empty, too long) draws nothing.
 */
function drawQrCode(ctx: SKRSContext2D, element: Extract<RenderElement, { kind: 'qrCode' }>): void {
  let modules: { size: number; get(row: number, col: number): number | boolean };
  try {
    modules = QRCode.create(element.text, { errorCorrectionLevel: 'M' }).modules;
  } catch {
    return;
  }
  const count = modules.size + QR_QUIET_ZONE * 2;
  const side = Math.min(element.width, element.height);
  const exact = side / count;
  const module = exact >= 1 ? Math.floor(exact) : exact;
  const left = Math.round(element.x + (element.width - module * count) / 2) + QR_QUIET_ZONE * module;
  const top = Math.round(element.y + (element.height - module * count) / 2) + QR_QUIET_ZONE * module;
  ctx.fillStyle = element.color;
  ctx.beginPath();
  for (let row = 0; row < modules.size; row++) {
    // A run of dark modules as one rectangle: fewer path segments, and no seams between them.
    let runStart = -1;
    for (let col = 0; col <= modules.size; col++) {
      const dark = col < modules.size && Boolean(modules.get(row, col));
      if (dark && runStart < 0) runStart = col;
      else if (!dark && runStart >= 0) {
        ctx.rect(left + runStart * module, top + row * module, (col - runStart) * module, module);
        runStart = -1;
      }
    }
  }
  ctx.fill();
}
