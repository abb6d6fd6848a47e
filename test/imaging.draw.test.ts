import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { PNG } from 'pngjs';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawSpec } from '../src/imaging/draw.js';
import { createRenderPool, type RenderPool } from '../src/imaging/render-pool.js';
import type { FontFamily, RenderElement, RenderSpec } from '../src/imaging/render-spec.js';
import { Decoded, near, solidPng, type Rgba } from './support/pictures.js';

const FAMILIES: FontFamily[] = ['arial', 'serif', 'roboto', 'greatVibes'];
const RED: Rgba = [208, 16, 32, 255];
const RED_HEX = '#d01020';
const BLUE: Rgba = [10, 120, 200, 255];
const YELLOW: Rgba = [250, 210, 20, 255];

const render = (spec: Partial<RenderSpec> & { elements: RenderElement[] }) => drawSpec({ width: 300, height: 200, base: null, ...spec });
const draw = (spec: Partial<RenderSpec> & { elements: RenderElement[] }) => new Decoded(render(spec).png);

type TextElement = Extract<RenderElement, { kind: 'text' }>;
const text = (fields: Partial<TextElement> & { text: string }): TextElement => ({
  kind: 'text',
  x: 0,
  y: 0,
  width: 300,
  height: 200,
  fontFamily: 'arial',
  fontSize: 40,
  color: RED_HEX,
  align: 'left',
  bold: false,
  italic: false,
  ...fields,
});

/** Every letter of Vietnamese: the twelve vowels with no tone and each of the five tones, both cases, and đ. */
const vietnameseLetters = (() => {
  const letters = new Set<string>(['đ', 'Đ']);
  for (const vowel of 'aăâeêioôơuưy') {
    for (const tone of ['', '\u0300', '\u0301', '\u0309', '\u0303', '\u0323']) {
      const letter = (vowel + tone).normalize('NFC');
      letters.add(letter);
      letters.add(letter.toUpperCase());
    }
  }
  return [...letters];
})();

describe('drawSpec', () => {
  it('gives a PNG of the canvas size, transparent where nothing is drawn', () => {
    const image = draw({ width: 321, height: 123, elements: [] });
    expect([image.width, image.height]).toEqual([321, 123]);
    expect(image.inked()).toEqual([]);
  });

  it('covers the canvas with the base picture, centred and cropped, and reports a base that does not decode', () => {
    // 40x10, its left half blue and right half yellow: scaled x20 to cover 300x200, centred, so
    // the middle 15 source columns show and the halves meet at the canvas's middle.
    const halves = new PNG({ width: 40, height: 10 });
    for (let i = 0; i < 400; i++) halves.data.set(i % 40 < 20 ? BLUE : YELLOW, i * 4);
    const base = new Uint8Array(PNG.sync.write(halves));
    const image = draw({ width: 300, height: 200, base, elements: [text({ text: 'Hi', x: 100, y: 80, width: 100, height: 40 })] });
    for (const [x, y] of [[0, 0], [0, 199], [140, 10], [20, 100]]) expect(image.at(x, y), `${x},${y}`).toEqual(BLUE);
    for (const [x, y] of [[299, 0], [299, 199], [160, 190]]) expect(image.at(x, y), `${x},${y}`).toEqual(YELLOW);

    const broken = render({ base: new Uint8Array(Buffer.from('not a picture')), elements: [] });
    expect(broken.undecodable).toEqual([-1]);
    expect(new Decoded(broken.png).inked()).toEqual([]);
  });

  it('fills the background colour first, under the base picture and the elements', () => {
    const image = draw({ width: 300, height: 200, backgroundColor: '#336699', base: solidPng(30, 20, [250, 210, 20, 0]), elements: [text({ text: 'Hi', x: 100, y: 80, width: 100, height: 40 })] });
    for (const [x, y] of [[0, 0], [299, 199], [150, 20]]) expect(image.at(x, y), `${x},${y}`).toEqual([51, 102, 153, 255]);
    expect(image.count({ x: 100, y: 80, width: 100, height: 40 }, RED, 2)).toBeGreaterThan(50);
  });

  it("draws text in its colour inside its box and nothing outside it, even when the text overflows", () => {
    const box = { x: 40, y: 30, width: 180, height: 70 };
    const image = draw({ elements: [text({ ...box, text: 'Hello wonderful world of overflowing words', fontSize: 40 })] });
    const inside = image.inked(box);
    // Opaque pixels of the text's colour (the glyphs' insides; their edges are partly transparent).
    expect(inside.filter((p) => near(image.at(p.x, p.y), RED, 2) && image.at(p.x, p.y)[3] === 255).length).toBeGreaterThan(200);
    // All the ink is in the box: as many inked pixels there as in the whole image.
    expect(image.inked().length).toBe(inside.length);
  });

  it('wraps text wider than its box onto lines 1.2 x fontSize apart, and drops the lines below the box', () => {
    // Two words a line in 200 px; line boxes of 36 px: two fit in 100 px, five in 200 px.
    const words = Array(12).fill('Hello').join(' ');
    const short = draw({ elements: [text({ text: words, x: 10, y: 10, width: 200, height: 100, fontSize: 30 })] });
    const tall = draw({ elements: [text({ text: words, x: 10, y: 10, width: 200, height: 200, fontSize: 30 })] });
    const shortLines = short.inkedRowRuns();
    const tallLines = tall.inkedRowRuns();
    expect(shortLines.length).toBe(2);
    expect(tallLines.length).toBe(5);
    expect(shortLines).toEqual(tallLines.slice(0, 2));
    for (let i = 1; i < tallLines.length; i++) expect(Math.abs(tallLines[i].top - tallLines[i - 1].top - 36), `line ${i}`).toBeLessThanOrEqual(1);
    expect(tallLines[0].top).toBeGreaterThanOrEqual(10);
    expect(tallLines[4].bottom).toBeLessThan(210);
  });

  it('breaks a word longer than its box between characters', () => {
    const image = draw({ elements: [text({ text: 'Pneumonoultramicroscopicsilicovolcanoconiosis', x: 0, y: 0, width: 120, height: 200, fontSize: 24 })] });
    expect(image.inkedRowRuns().length).toBeGreaterThanOrEqual(4);
    expect(image.inkBounds()!.right).toBeLessThan(120);
  });

  it('aligns each line left, centre or right in its box', () => {
    const bounds = (align: 'left' | 'center' | 'right') => draw({ elements: [text({ text: 'Hi', x: 0, y: 0, width: 300, height: 60, align })] }).inkBounds()!;
    const left = bounds('left');
    const center = bounds('center');
    const right = bounds('right');
    expect(left.left).toBeLessThan(10);
    expect(right.right).toBeGreaterThan(289);
    expect(Math.abs(center.left + center.right - 300)).toBeLessThanOrEqual(6);
  });

  it('draws Great Vibes and Arimo with different ink widths for the same word', () => {
    const width = (fontFamily: FontFamily) => {
      const b = draw({ elements: [text({ text: 'Signature', fontFamily, fontSize: 48 })] }).inkBounds()!;
      return b.right - b.left;
    };
    expect(Math.abs(width('greatVibes') - width('arial'))).toBeGreaterThan(10);
  });

  it('draws bold and italic faces differently from the regular one, in every family', () => {
    for (const fontFamily of FAMILIES) {
      const png = (bold: boolean, italic: boolean) => Buffer.from(render({ elements: [text({ text: 'Hương', fontFamily, bold, italic })] }).png);
      const regular = png(false, false);
      expect(png(true, false).equals(regular), `${fontFamily} bold`).toBe(false);
      expect(png(false, true).equals(regular), `${fontFamily} italic`).toBe(false);
      expect(png(true, true).equals(regular), `${fontFamily} bold italic`).toBe(false);
    }
  });

  it('draws each family with the TTF file of its @expo-google-fonts package, never an installed font', () => {
    // The same words drawn here with the file registered under another name: the same ink extent
    // (to a pixel: the two baselines differ by a fraction of one).
    const require = createRequire(import.meta.url);
    const files: [FontFamily, boolean, string][] = [
      ['arial', false, '@expo-google-fonts/arimo/400Regular/Arimo_400Regular.ttf'],
      ['arial', true, '@expo-google-fonts/arimo/700Bold/Arimo_700Bold.ttf'],
      ['serif', false, '@expo-google-fonts/noto-serif/400Regular/NotoSerif_400Regular.ttf'],
      ['roboto', false, '@expo-google-fonts/roboto/400Regular/Roboto_400Regular.ttf'],
      ['greatVibes', false, '@expo-google-fonts/great-vibes/400Regular/GreatVibes_400Regular.ttf'],
    ];
    for (const [fontFamily, bold, file] of files) {
      const alias = `test-${file.split('/').pop()}`;
      GlobalFonts.register(readFileSync(require.resolve(file)), alias);
      const canvas = createCanvas(500, 100);
      const ctx = canvas.getContext('2d');
      ctx.font = `${bold ? 'bold ' : ''}48px "${alias}"`;
      ctx.fillText('Hương Quy', 10, 70);
      const expected = new Decoded(canvas.encodeSync('png')).inkBounds()!;
      const drawn = draw({ width: 500, height: 100, elements: [text({ text: 'Hương Quy', fontFamily, bold, fontSize: 48, x: 10, width: 490, height: 100 })] }).inkBounds()!;
      expect(Math.abs(drawn.right - drawn.left - (expected.right - expected.left)), file).toBeLessThanOrEqual(1);
      expect(Math.abs(drawn.bottom - drawn.top - (expected.bottom - expected.top)), file).toBeLessThanOrEqual(1);
    }
  });

  describe('Vietnamese', () => {
    it('"Đặng Thị Hương" has ink in every family, more than the same letters without their marks', () => {
      for (const fontFamily of FAMILIES) {
        const inked = (value: string) => draw({ width: 500, height: 80, elements: [text({ text: value, fontFamily, width: 500, height: 80 })] }).inked().length;
        const marked = inked('Đặng Thị Hương');
        const bare = inked('Dang Thi Huong');
        expect(bare, fontFamily).toBeGreaterThan(500);
        expect(marked, fontFamily).toBeGreaterThan(bare);
      }
    });

    it('every letter of the alphabet, in every face of every family, is drawn from our fonts', () => {
      // One box per letter. A letter our font lacks is left out (see below), so its box would stay empty.
      const columns = 20;
      const boxes = vietnameseLetters.map((letter, i) => ({ letter, x: (i % columns) * 40, y: Math.floor(i / columns) * 40, width: 40, height: 40 }));
      const size = { width: columns * 40, height: Math.ceil(boxes.length / columns) * 40 };
      for (const fontFamily of FAMILIES) {
        for (const [bold, italic] of [[false, false], [true, false], [false, true], [true, true]]) {
          const image = draw({ ...size, elements: boxes.map((b) => text({ ...b, text: b.letter, fontFamily, fontSize: 24, bold, italic })) });
          const empty = boxes.filter((b) => image.inked(b).length === 0).map((b) => b.letter);
          expect(empty, `${fontFamily}${bold ? ' bold' : ''}${italic ? ' italic' : ''}`).toEqual([]);
        }
      }
    });

    it('a decomposed spelling (as some keyboards type it) draws as the composed one', () => {
      const composed = render({ elements: [text({ text: 'Đặng Thị Hương' })] }).png;
      const decomposed = render({ elements: [text({ text: 'Đặng Thị Hương'.normalize('NFD') })] }).png;
      expect(Buffer.from(decomposed).equals(Buffer.from(composed))).toBe(true);
    });
  });

  it('leaves out characters our fonts lack instead of drawing a box or an installed font\'s glyph', () => {
    // U+E000 is private use (no font has it); the snowman and the emoji are in fonts many machines
    // have installed (DejaVu, Noto Color Emoji) and in none of ours.
    for (const fontFamily of FAMILIES) {
      const plain = Buffer.from(render({ elements: [text({ text: 'A B', fontFamily })] }).png);
      for (const extra of ['\uE000', '\u2603', '🌸']) {
        const withExtra = Buffer.from(render({ elements: [text({ text: `A${extra} B`, fontFamily })] }).png);
        expect(withExtra.equals(plain), `${fontFamily} ${JSON.stringify(extra)}`).toBe(true);
      }
    }
    expect(draw({ elements: [text({ text: '\uE000\u2603' })] }).inked()).toEqual([]);
  });

  it('draws text as given: upper-casing is the caller\'s', () => {
    const lower = Buffer.from(render({ elements: [text({ text: 'hello' })] }).png);
    const upper = Buffer.from(render({ elements: [text({ text: 'HELLO' })] }).png);
    expect(lower.equals(upper)).toBe(false);
  });

  describe('pictures', () => {
    const GREEN: Rgba = [20, 180, 60, 255];
    const picture = (fields: Partial<Extract<RenderElement, { kind: 'picture' }>> & { pictures: Uint8Array[] }): RenderElement => ({
      kind: 'picture',
      style: 'square',
      x: 50,
      y: 50,
      width: 100,
      height: 100,
      ...fields,
    });

    it('circle: the box corners transparent, the centre the picture\'s colour', () => {
      const image = draw({ elements: [picture({ style: 'circle', pictures: [solidPng(60, 60, GREEN)] })] });
      for (const [x, y] of [[50, 50], [149, 50], [50, 149], [149, 149], [60, 60], [139, 139]]) {
        expect(image.at(x, y)[3], `${x},${y}`).toBe(0);
      }
      expect(image.at(100, 100)).toEqual(GREEN);
      // The circle touches the middle of each side of the box.
      for (const [x, y] of [[100, 51], [51, 100], [148, 100], [100, 148]]) expect(image.at(x, y)[3], `${x},${y}`).toBeGreaterThan(0);
      expect(image.inked().every((p) => p.x >= 50 && p.x < 150 && p.y >= 50 && p.y < 150)).toBe(true);
    });

    it('rounded: the corners transparent, the sides and centre opaque', () => {
      const image = draw({ elements: [picture({ style: 'rounded', pictures: [solidPng(60, 60, GREEN)] })] });
      for (const [x, y] of [[50, 50], [149, 50], [50, 149], [149, 149]]) expect(image.at(x, y)[3], `${x},${y}`).toBe(0);
      for (const [x, y] of [[100, 100], [100, 50], [50, 100], [149, 100], [100, 149], [55, 60]]) expect(image.at(x, y), `${x},${y}`).toEqual(GREEN);
    });

    it('a 2:1 picture in a square box fits whole: full width, transparent bands above and below', () => {
      const image = draw({ elements: [picture({ x: 0, y: 0, pictures: [solidPng(200, 100, GREEN)] })] });
      for (const x of [0, 50, 99]) {
        expect(image.at(x, 50), `${x},50`).toEqual(GREEN);
        expect(image.at(x, 26), `${x},26`).toEqual(GREEN);
        expect(image.at(x, 73), `${x},73`).toEqual(GREEN);
        expect(image.at(x, 23)[3], `${x},23`).toBe(0);
        expect(image.at(x, 76)[3], `${x},76`).toBe(0);
      }
      expect(image.inkBounds()).toEqual({ left: 0, top: 25, right: 99, bottom: 74 });
    });

    it('a picture that does not decode is reported and the next one drawn', () => {
      const blue = solidPng(10, 10, [0, 0, 255, 255]);
      const randomBytes = new Uint8Array(Array.from({ length: 512 }, (_, i) => (i * 7919 + 13) % 251));
      const truncatedPng = solidPng(30, 30, GREEN).subarray(0, 20);
      const svg = new Uint8Array(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>'));

      const result = render({
        elements: [
          picture({ x: 0, y: 0, width: 50, height: 50, pictures: [randomBytes, blue] }),
          picture({ x: 60, y: 0, width: 50, height: 50, pictures: [blue, randomBytes] }),
          picture({ x: 120, y: 0, width: 50, height: 50, pictures: [truncatedPng, svg, blue] }),
          picture({ x: 180, y: 0, width: 50, height: 50, pictures: [svg] }),
          picture({ x: 240, y: 0, width: 50, height: 50, pictures: [] }),
        ],
      });
      expect(result.undecodable).toEqual([0, 2, 3]);
      const image = new Decoded(result.png);
      expect(image.at(25, 25)).toEqual([0, 0, 255, 255]);
      expect(image.at(85, 25)).toEqual([0, 0, 255, 255]);
      expect(image.at(145, 25)).toEqual([0, 0, 255, 255]);
      expect(image.inked({ x: 180, y: 0, width: 120, height: 200 })).toEqual([]);
    });
  });

  describe('QR code', () => {
    const DARK: Rgba = [16, 32, 48, 255];
    const qr = (value: string, box = { x: 20, y: 10, width: 260, height: 180 }): RenderElement => ({ kind: 'qrCode', text: value, color: '#102030', ...box });

    it('draws the modules in its colour on transparent, as the largest centred square, with its three finder patterns', () => {
      const value = 'https://example.com/welcome?contact=42';
      const box = { x: 20, y: 10, width: 260, height: 180 };
      const image = draw({ elements: [qr(value, box)] });
      const size = QRCode.create(value, { errorCorrectionLevel: 'M' }).modules.size;

      const ink = image.inkBounds()!;
      const side = ink.right - ink.left + 1;
      expect(ink.bottom - ink.top + 1).toBe(side);
      const module = side / size;
      expect(Number.isInteger(module)).toBe(true);
      // The largest whole-pixel module size with a quiet zone of two modules each side in the box's shorter side.
      expect(module * (size + 4)).toBeLessThanOrEqual(180);
      expect((module + 1) * (size + 4)).toBeGreaterThan(180);
      // Centred in the box (to the pixel).
      expect(Math.abs(ink.left + ink.right - (2 * box.x + box.width - 1))).toBeLessThanOrEqual(1);
      expect(Math.abs(ink.top + ink.bottom - (2 * box.y + box.height - 1))).toBeLessThanOrEqual(1);
      // Only two colours: the QR colour, opaque, and transparent (whole-pixel modules leave no partial edges).
      expect(image.inked().every((p) => image.at(p.x, p.y).every((v, i) => v === DARK[i]))).toBe(true);

      // A finder pattern: a dark 7x7 ring, a light ring, a dark 3x3 centre (sampled at module centres).
      const moduleAt = (col: number, row: number) => image.at(ink.left + col * module + Math.floor(module / 2), ink.top + row * module + Math.floor(module / 2))[3] > 0;
      const isFinder = (col: number, row: number) => {
        for (let r = 0; r < 7; r++) {
          for (let c = 0; c < 7; c++) {
            const ring = Math.max(Math.abs(r - 3), Math.abs(c - 3));
            if (moduleAt(col + c, row + r) !== (ring !== 2)) return false;
          }
        }
        return true;
      };
      expect(isFinder(0, 0)).toBe(true);
      expect(isFinder(size - 7, 0)).toBe(true);
      expect(isFinder(0, size - 7)).toBe(true);
      expect(isFinder(size - 7, size - 7)).toBe(false);
    });

    it('draws nothing, without throwing, for text a QR code cannot hold', () => {
      const result = render({ elements: [qr('x'.repeat(5000)), qr('')] });
      expect(result.undecodable).toEqual([]);
      expect(new Decoded(result.png).inked()).toEqual([]);
    });
  });
});

describe('the render pool', () => {
  let pool: RenderPool;
  beforeAll(() => {
    pool = createRenderPool({ threads: 2, maxQueue: 8, recycleAfter: 100 });
  });
  afterAll(() => pool.close());

  it('gives the same PNG from its threads as drawSpec in this one, with its report', async () => {
    const spec: RenderSpec = {
      width: 400,
      height: 300,
      base: solidPng(80, 60, [240, 230, 200, 255]),
      elements: [
        { kind: 'picture', style: 'circle', x: 20, y: 20, width: 120, height: 120, pictures: [new Uint8Array([1, 2, 3]), solidPng(50, 50, [200, 40, 90, 255])] },
        text({ text: 'Đặng Thị Hương', x: 150, y: 40, width: 240, height: 120, fontFamily: 'greatVibes', fontSize: 44 }),
        { kind: 'qrCode', text: 'https://example.com', color: '#000000', x: 280, y: 180, width: 110, height: 110 },
      ],
    };
    const [pooled, again] = await Promise.all([pool.render(spec), pool.render(spec)]);
    const direct = drawSpec(spec);
    expect(pooled.undecodable).toEqual([0]);
    expect(pooled.png).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(pooled.png).equals(Buffer.from(direct.png))).toBe(true);
    expect(Buffer.from(again.png).equals(Buffer.from(direct.png))).toBe(true);
    expect(new Decoded(pooled.png).width).toBe(400);
  });
});
