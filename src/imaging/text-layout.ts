/**
 * Lays text out in a box: words wrapped by measured width, a word wider than the box broken
 * between characters, `\n` starting a new line. Lines are 1.2 x fontSize apart from the top of the
 * box (top-aligned); a line whose line box does not fit the box's height is left out, except the
 * first, so an undersized box still shows its text (clipped by the drawing). Pure: the width of a
 * string comes from `measure`, so layouts are tested without a canvas.
 */

export const LINE_HEIGHT = 1.2;

export interface TextLayoutInput {
  text: string;
  /** The box's size, in the same unit as `measure` and `fontSize`. */
  width: number;
  height: number;
  fontSize: number;
  align: 'left' | 'center' | 'right';
}

export interface LaidOutLine {
  text: string;
  /** Left edge of the line and top of its line box, relative to the box's top-left corner. */
  x: number;
  top: number;
  /** The measured width of `text`. */
  width: number;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

export function layoutText(input: TextLayoutInput, measure: (text: string) => number): LaidOutLine[] {
  const { width, height, fontSize, align } = input;
  if (!(fontSize > 0) || !(width > 0)) return [];
  const lineHeight = fontSize * LINE_HEIGHT;
  const maxLines = Math.max(1, Math.floor(height / lineHeight + 1e-9));

  const lines: string[] = [];
  for (const paragraph of input.text.split('\n')) {
    wrapParagraph(paragraph, width, measure, lines, maxLines);
    if (lines.length >= maxLines) break;
  }
  // Trailing empty lines (a text ending in "\n") draw nothing; leading and inner ones keep their space.
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();

  return lines.slice(0, maxLines).map((text, i) => {
    const lineWidth = text === '' ? 0 : measure(text);
    const x = align === 'left' ? 0 : align === 'center' ? (width - lineWidth) / 2 : width - lineWidth;
    return { text, x, top: i * lineHeight, width: lineWidth };
  });
}

/** Appends the paragraph's lines to `into`, stopping once it holds `maxLines`. */
function wrapParagraph(paragraph: string, width: number, measure: (text: string) => number, into: string[], maxLines: number): void {
  const words = paragraph.split(' ').filter((w) => w !== '');
  if (words.length === 0) {
    into.push('');
    return;
  }
  let line = '';
  for (const word of words) {
    if (into.length >= maxLines) return;
    const candidate = line === '' ? word : `${line} ${word}`;
    if (measure(candidate) <= width) {
      line = candidate;
      continue;
    }
    if (line !== '') {
      into.push(line);
      line = '';
      if (into.length >= maxLines) return;
    }
    if (measure(word) <= width) {
      line = word;
      continue;
    }
    // A word wider than the box: as many characters per line as fit, at least one so it progresses.
    let piece = '';
    for (const { segment } of graphemes.segment(word)) {
      if (piece !== '' && measure(piece + segment) > width) {
        into.push(piece);
        piece = '';
        if (into.length >= maxLines) return;
      }
      piece += segment;
    }
    line = piece;
  }
  if (line !== '' && into.length < maxLines) into.push(line);
}
