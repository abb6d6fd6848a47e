/**
 * The characters a TrueType/OpenType font has glyphs for, read from its `cmap` table. The canvas
 * library draws a character its font lacks with whatever installed font has it, so text is
 * filtered against this set first: what we draw then depends on our font files only.
 */

const tag = (bytes: DataView, at: number) =>
  String.fromCharCode(bytes.getUint8(at), bytes.getUint8(at + 1), bytes.getUint8(at + 2), bytes.getUint8(at + 3));

/** Code points of `font` that map to a glyph other than .notdef (cmap subtable formats 4 and 12). */
export function mappedCharacters(font: Uint8Array): Set<number> {
  const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
  const tables = view.getUint16(4);
  let cmap = -1;
  for (let i = 0; i < tables; i++) {
    if (tag(view, 12 + i * 16) === 'cmap') cmap = view.getUint32(12 + i * 16 + 8);
  }
  if (cmap < 0) throw new Error('font has no cmap table');

  const mapped = new Set<number>();
  const subtables = view.getUint16(cmap + 2);
  for (let i = 0; i < subtables; i++) {
    const record = cmap + 4 + i * 8;
    const platform = view.getUint16(record);
    const encoding = view.getUint16(record + 2);
    // Unicode subtables only: platform 0, or Windows (3) with BMP (1) or full repertoire (10).
    if (!(platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10)))) continue;
    const at = cmap + view.getUint32(record + 4);
    const format = view.getUint16(at);
    if (format === 4) readFormat4(view, at, mapped);
    else if (format === 12) readFormat12(view, at, mapped);
  }
  return mapped;
}

/** Segments of 16-bit code points, each mapped by a delta or through a glyph id array. */
function readFormat4(view: DataView, at: number, into: Set<number>): void {
  const segments = view.getUint16(at + 6) / 2;
  const ends = at + 14;
  const starts = ends + segments * 2 + 2;
  const deltas = starts + segments * 2;
  const offsets = deltas + segments * 2;
  for (let s = 0; s < segments; s++) {
    const end = view.getUint16(ends + s * 2);
    const start = view.getUint16(starts + s * 2);
    const delta = view.getInt16(deltas + s * 2);
    const offset = view.getUint16(offsets + s * 2);
    for (let c = start; c <= end && c !== 0xffff; c++) {
      let glyph: number;
      if (offset === 0) glyph = (c + delta) & 0xffff;
      else {
        glyph = view.getUint16(offsets + s * 2 + offset + (c - start) * 2);
        if (glyph !== 0) glyph = (glyph + delta) & 0xffff;
      }
      if (glyph !== 0) into.add(c);
    }
  }
}

/** Groups of consecutive code points (any plane) mapped to consecutive glyphs. */
function readFormat12(view: DataView, at: number, into: Set<number>): void {
  const groups = view.getUint32(at + 12);
  for (let g = 0; g < groups; g++) {
    const group = at + 16 + g * 12;
    const start = view.getUint32(group);
    const end = view.getUint32(group + 4);
    const firstGlyph = view.getUint32(group + 8);
    for (let c = start; c <= end; c++) if (firstGlyph + (c - start) !== 0) into.add(c);
  }
}
