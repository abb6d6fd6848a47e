import * as zlib from 'node:zlib';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { encodePng, tableCrc32 } from '../src/imaging/png-encode.js';

/** Pixels from a fixed linear congruential sequence: every byte value, alpha included. */
function noise(width: number, height: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(width * height * 4);
  let x = seed >>> 0;
  for (let i = 0; i < bytes.length; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    bytes[i] = x >>> 24;
  }
  return bytes;
}

const decoded = (png: Uint8Array) => {
  const image = PNG.sync.read(Buffer.from(png));
  return { width: image.width, height: image.height, data: new Uint8Array(image.data) };
};

describe('PNG encoding', () => {
  it('gives back the same RGBA pixels, whatever their values, when decoded', () => {
    for (const [width, height, seed] of [[1, 1, 1], [37, 23, 2], [256, 3, 3], [5, 64, 4]] as const) {
      const pixels = noise(width, height, seed);
      expect(decoded(encodePng(pixels, width, height)), `${width}x${height}`).toEqual({ width, height, data: pixels });
    }
  });

  it('encodes flat rows to almost nothing and takes pixels at any offset of their buffer', () => {
    const flat = new Uint8Array(200 * 100 * 4).fill(200);
    const png = encodePng(flat, 200, 100);
    expect(png.length).toBeLessThan(2_000);
    expect(decoded(png).data).toEqual(flat);
    const shifted = new Uint8Array(1 + 7 * 5 * 4).subarray(1);
    shifted.set(noise(7, 5, 9));
    expect(decoded(encodePng(shifted, 7, 5)).data).toEqual(new Uint8Array(shifted));
  });

  it('owns its whole buffer (a drawing thread transfers it) and refuses a size that is not the pixels\'', () => {
    const png = encodePng(noise(10, 10, 5), 10, 10);
    expect([png.byteOffset, png.byteLength]).toEqual([0, png.buffer.byteLength]);
    expect(() => encodePng(new Uint8Array(10), 2, 2)).toThrow(RangeError);
  });

  it('its table CRC-32 (for Node before 20.15) is zlib\'s', () => {
    const zlibCrc32 = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;
    const data = noise(50, 50, 7);
    expect(tableCrc32(new Uint8Array(0))).toBe(0);
    expect(tableCrc32(new TextEncoder().encode('IEND'))).toBe(0xae426082);
    if (zlibCrc32) expect(tableCrc32(data)).toBe(zlibCrc32(data));
  });
});
