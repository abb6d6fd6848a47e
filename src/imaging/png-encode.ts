import * as zlib from 'node:zlib';

/**
 * RGBA pixels (straight alpha, as `getImageData` gives them) as a PNG file, written as pngjs wrote
 * them before (`filterType: 2, deflateLevel: 1`, its run-length strategy): every row with the Up
 * filter (a row minus the row above: zero on flat designs, small on photographs), deflated at
 * zlib's fastest level. pngjs filtered byte by byte in JavaScript, most of the CPU a render of the
 * demo's greeting card took (bench/README.md, "Dynamic images"). Here the filter takes four bytes a
 * step, with no borrow between them (SWAR): the same bytes in a fraction of a plain loop's time.
 */
export function encodePng(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): Uint8Array {
  const stride = width * 4;
  if (rgba.byteLength !== stride * height) throw new RangeError(`${rgba.byteLength} bytes are not ${width}x${height} RGBA pixels`);
  // Words need 4-byte alignment: getImageData's array starts its own buffer; anything else is copied.
  const pixels = rgba.byteOffset % 4 === 0 ? rgba : new Uint8Array(rgba);
  const words = new Uint32Array(pixels.buffer, pixels.byteOffset, (stride * height) / 4);
  const rowWords = stride / 4;
  const row = new Uint32Array(rowWords);
  const rowBytes = new Uint8Array(row.buffer);
  const filtered = new Uint8Array((stride + 1) * height);
  if (height > 0) filtered.set(pixels.subarray(0, stride), 1); // the first row: None (nothing above)
  for (let y = 1; y < height; y++) {
    const at = y * rowWords;
    const above = at - rowWords;
    for (let i = 0; i < rowWords; i++) {
      const a = words[at + i]!;
      const b = words[above + i]!;
      // Each byte (a - b) mod 256: the high bits set on a and cleared on b so no byte borrows from the next, then put back.
      row[i] = ((a | HIGH_BITS) - (b & ~HIGH_BITS)) ^ ((a ^ ~b) & HIGH_BITS);
    }
    const out = y * (stride + 1);
    filtered[out] = 2; // Up
    filtered.set(rowBytes, out + 1);
  }
  const idat = zlib.deflateSync(filtered, { level: 1, strategy: zlib.constants.Z_RLE });

  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits a channel, RGBA, deflate, adaptive filtering, no interlace

  const chunks: [string, Uint8Array][] = [['IHDR', header], ['IDAT', idat], ['IEND', new Uint8Array(0)]];
  // A fresh array of the exact size (not a pooled Buffer's slice): its ArrayBuffer can be transferred whole.
  const png = new Uint8Array(SIGNATURE.length + chunks.reduce((n, [, data]) => n + 12 + data.length, 0));
  png.set(SIGNATURE, 0);
  const out = new DataView(png.buffer);
  let at = SIGNATURE.length;
  for (const [type, data] of chunks) {
    out.setUint32(at, data.length);
    for (let i = 0; i < 4; i++) png[at + 4 + i] = type.charCodeAt(i);
    png.set(data, at + 8);
    out.setUint32(at + 8 + data.length, crc32(png.subarray(at + 4, at + 8 + data.length)));
    at += 12 + data.length;
  }
  return png;
}

const HIGH_BITS = 0x80808080;
const SIGNATURE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** node:zlib has crc32 from Node 20.15; the table below serves the earlier Node 20 releases. */
const zlibCrc32 = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;

let table: Uint32Array | null = null;
/** CRC-32 as PNG chunks carry it, by table. Exported for its test, which holds it equal to zlib's. */
export function tableCrc32(data: Uint8Array): number {
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (let i = 0; i < data.length; i++) crc = table[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const crc32 = (data: Uint8Array): number => (zlibCrc32 ? zlibCrc32(data) : tableCrc32(data));
