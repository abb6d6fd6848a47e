/**
 * What the drawing core is given and what it gives back: plain data (typed arrays, strings,
 * numbers) so a spec crosses to a worker thread by structured clone. Everything is resolved
 * before it gets here: no variables, no URLs, only picture bytes and final strings.
 */

export type FontFamily = 'arial' | 'serif' | 'roboto' | 'greatVibes';

export interface RenderBox { x: number; y: number; width: number; height: number }

export type RenderElement =
  | (RenderBox & { kind: 'picture'; style: 'square' | 'circle' | 'rounded'; pictures: Uint8Array[] })
  | (RenderBox & { kind: 'text'; text: string; fontFamily: FontFamily; fontSize: number; color: string; align: 'left' | 'center' | 'right'; bold: boolean; italic: boolean })
  | (RenderBox & { kind: 'qrCode'; text: string; color: string });

export interface RenderSpec {
  width: number; height: number;
  /** Filled first, under the base: a CSS colour (#RRGGBB); absent or null: transparent. */
  backgroundColor?: string | null;
  /** Drawn first, scaled to cover the whole canvas (centred, cropped): a background picture or an earlier render of the canvas's lower layers (then exactly canvas-sized). null: transparent. */
  base: Uint8Array | null;
  /** Drawn in order, bottom to top. */
  elements: RenderElement[];
}

export interface RenderResult {
  png: Uint8Array;
  /** Indexes into elements of pictures whose first picture did not decode (a later one in `pictures`, the fallback, may have been drawn), and -1 when `base` did not decode. */
  undecodable: number[];
}
