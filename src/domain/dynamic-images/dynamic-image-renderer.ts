/**
 * The boundary between dynamic images and the machinery that draws them (src/imaging/): the domain
 * resolves a template for a contact into a layout of final strings and picture URLs; the renderer
 * fetches the pictures (through the outbound guard) and draws, off the request thread. It throws
 * AppError `serviceUnavailable` (with Retry-After) when its pool is full, and nothing else for a bad
 * picture: a picture that cannot be used is a `failure` and its element's fallback is drawn.
 */

export interface LayoutBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export type LayoutElement =
  /** Pictures tried in order (the element's own, then its fallback); none that works: nothing drawn. */
  | (LayoutBox & { kind: 'picture'; style: 'square' | 'circle' | 'rounded'; urls: string[] })
  | (LayoutBox & {
      kind: 'text';
      text: string;
      fontFamily: 'arial' | 'serif' | 'roboto' | 'greatVibes';
      fontSize: number;
      color: string;
      align: 'left' | 'center' | 'right';
      bold: boolean;
      italic: boolean;
    })
  | (LayoutBox & { kind: 'qrCode'; text: string; color: string });

export interface RenderRequest {
  width: number;
  height: number;
  /** Filled first, #RRGGBB; null: transparent. */
  backgroundColor: string | null;
  /** Drawn first: a PNG of the canvas's lower layers already drawn, or the background picture's URL, or nothing. */
  base: { png: Uint8Array } | { url: string } | null;
  elements: LayoutElement[];
}

export interface RenderOutcome {
  png: Uint8Array;
  /** Pictures that could not be used, each with the reason (for the workspace's error log). */
  failures: { url: string; error: string }[];
}

export interface DynamicImageRenderer {
  render(request: RenderRequest): Promise<RenderOutcome>;
}
