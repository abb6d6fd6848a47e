import { move, transferableSymbol, valueSymbol } from 'piscina';
import { drawSpec, type Picture } from './draw.js';
import { registerFonts } from './fonts.js';
import type { RenderResult, RenderSpec } from './render-spec.js';

// At load, so a thread pays for its fonts when it starts rather than in its first render.
registerFonts();

/** A render as piscina moves it back: the PNG's ArrayBuffer is transferred, not copied. */
class MovedRender {
  constructor(readonly value: RenderResult) {}
  get [transferableSymbol](): object {
    return [this.value.png.buffer];
  }
  get [valueSymbol](): object {
    return this.value;
  }
}

export default async function render(spec: RenderSpec): Promise<RenderResult> {
  const made: Picture[] = [];
  const result = drawSpec(spec, made);
  // The library releases a picture only once its load has settled; awaiting decode() settles it
  // (already decoded by the drawing, it costs nothing). Without this, pictures of the renders just
  // before a recycle stay referenced when their thread ends ("ObjectRef is not unref").
  await Promise.allSettled(made.map((picture) => picture.decode()));
  const { png } = result;
  // Moved, not copied, when the PNG owns its whole buffer; otherwise copied once so that transferring
  // the buffer moves only these bytes.
  const owned = png.byteOffset === 0 && png.byteLength === png.buffer.byteLength ? png : new Uint8Array(png);
  // piscina unwraps the moved value: the caller receives the RenderResult itself.
  return move(new MovedRender({ png: owned, undecodable: result.undecodable })) as unknown as RenderResult;
}
