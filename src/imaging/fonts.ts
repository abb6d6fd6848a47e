import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { GlobalFonts } from '@napi-rs/canvas';
import { mappedCharacters } from './font-characters.js';
import type { FontFamily } from './render-spec.js';

/**
 * The four font families of dynamic images, from the TTF files of the @expo-google-fonts packages
 * (they cover Latin, Latin Extended and Vietnamese). Great Vibes has one face: for bold or italic
 * the canvas synthesises it (emboldened strokes, slanted glyphs).
 */
const FACES: Record<FontFamily, readonly string[]> = {
  arial: [
    '@expo-google-fonts/arimo/400Regular/Arimo_400Regular.ttf',
    '@expo-google-fonts/arimo/700Bold/Arimo_700Bold.ttf',
    '@expo-google-fonts/arimo/400Regular_Italic/Arimo_400Regular_Italic.ttf',
    '@expo-google-fonts/arimo/700Bold_Italic/Arimo_700Bold_Italic.ttf',
  ],
  serif: [
    '@expo-google-fonts/noto-serif/400Regular/NotoSerif_400Regular.ttf',
    '@expo-google-fonts/noto-serif/700Bold/NotoSerif_700Bold.ttf',
    '@expo-google-fonts/noto-serif/400Regular_Italic/NotoSerif_400Regular_Italic.ttf',
    '@expo-google-fonts/noto-serif/700Bold_Italic/NotoSerif_700Bold_Italic.ttf',
  ],
  roboto: [
    '@expo-google-fonts/roboto/400Regular/Roboto_400Regular.ttf',
    '@expo-google-fonts/roboto/700Bold/Roboto_700Bold.ttf',
    '@expo-google-fonts/roboto/400Regular_Italic/Roboto_400Regular_Italic.ttf',
    '@expo-google-fonts/roboto/700Bold_Italic/Roboto_700Bold_Italic.ttf',
  ],
  greatVibes: ['@expo-google-fonts/great-vibes/400Regular/GreatVibes_400Regular.ttf'],
};

const FONT_FAMILIES = Object.keys(FACES) as FontFamily[];

/**
 * The name each family is registered under. Not "Arial" or "Roboto": a font installed on the
 * machine under the same name could then answer instead of ours.
 */
const registeredName = (family: FontFamily) => `dynamic-images-${family}`;

/** Per family, the characters every one of its faces has; set once fonts are registered in this thread. */
let coverage: Map<FontFamily, Set<number>> | null = null;

/**
 * Registers the four families with the canvas library, once per thread (later calls return at
 * once). Resolved from this module's location, so it works from src/ under tsx and from dist/.
 */
export function registerFonts(): void {
  if (coverage) return;
  const require = createRequire(import.meta.url);
  const covered = new Map<FontFamily, Set<number>>();
  for (const family of FONT_FAMILIES) {
    const name = registeredName(family);
    // The library's font table may already hold the family when another thread of this process
    // registered it; registering again would only add duplicates.
    const present = GlobalFonts.has(name);
    let common: Set<number> | undefined;
    for (const specifier of FACES[family]) {
      const path = require.resolve(specifier);
      const bytes = readFileSync(path);
      if (!present && GlobalFonts.register(bytes, name) === null) throw new Error(`the canvas library refused the font ${path}`);
      const mapped = mappedCharacters(bytes);
      common = common ? new Set([...common].filter((c) => mapped.has(c))) : mapped;
    }
    covered.set(family, common ?? new Set());
  }
  coverage = covered;
}

/** The `ctx.font` value for a text element's face. */
export function fontShorthand(family: FontFamily, fontSize: number, bold: boolean, italic: boolean): string {
  return `${italic ? 'italic ' : ''}${bold ? 'bold ' : ''}${fontSize}px "${registeredName(family)}"`;
}

/**
 * `text` as the family can draw it: composed (NFC, so a decomposed "ặ" finds its precomposed
 * glyph), tabs as spaces, and every character the family has no glyph for (emoji, other scripts,
 * private use) left out rather than drawn from an installed font or as a box.
 */
export function drawableText(family: FontFamily, text: string): string {
  if (!coverage) registerFonts();
  const has = coverage!.get(family)!;
  let out = '';
  for (const char of text.normalize('NFC').replace(/\t/g, ' ')) {
    if (char === '\n' || has.has(char.codePointAt(0)!)) out += char;
  }
  return out;
}
