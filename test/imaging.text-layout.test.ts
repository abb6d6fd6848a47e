import { describe, expect, it } from 'vitest';
import { layoutText, type TextLayoutInput } from '../src/imaging/text-layout.js';

/** Every character 10 units wide: widths read off the strings. */
const measure = (s: string) => [...s].length * 10;
const lay = (input: Partial<TextLayoutInput> & { text: string }) =>
  layoutText({ width: 100, height: 1000, fontSize: 10, align: 'left', ...input }, measure);
const texts = (input: Partial<TextLayoutInput> & { text: string }) => lay(input).map((l) => l.text);

describe('layoutText', () => {
  it('fills each line with as many whole words as fit the width', () => {
    expect(texts({ text: 'aaa bbb ccc ddd eee' })).toEqual(['aaa bbb', 'ccc ddd', 'eee']);
    // Exactly the width fits: "aaaa bbbbb" is 100.
    expect(texts({ text: 'aaaa bbbbb c' })).toEqual(['aaaa bbbbb', 'c']);
  });

  it('collapses runs of spaces and starts a new line at each \\n, keeping empty lines between', () => {
    expect(texts({ text: '  a   b  ' })).toEqual(['a b']);
    expect(texts({ text: 'a\n\nb\n' })).toEqual(['a', '', 'b']);
  });

  it('breaks a word wider than the box between characters, then goes on wrapping', () => {
    expect(texts({ text: 'xy abcdefghijklmnopqrstuvw z' })).toEqual(['xy', 'abcdefghij', 'klmnopqrst', 'uvw z']);
    // Never splits a character from its combining mark (each pair measures 20 here).
    expect(texts({ text: 'a\u0301'.repeat(12), width: 60 })).toEqual(['a\u0301'.repeat(3), 'a\u0301'.repeat(3), 'a\u0301'.repeat(3), 'a\u0301'.repeat(3)]);
  });

  it('puts at least one character on a line narrower than it', () => {
    expect(texts({ text: 'abc', width: 5 })).toEqual(['a', 'b', 'c']);
  });

  it('spaces lines 1.2 x fontSize from the top of the box and drops those whose line box does not fit', () => {
    const lines = lay({ text: 'a b c d e', width: 10, height: 50, fontSize: 10 });
    expect(lines.map((l) => [l.text, l.top])).toEqual([['a', 0], ['b', 12], ['c', 24], ['d', 36]]);
    expect(lay({ text: 'a b c', width: 10, height: 36, fontSize: 10 }).map((l) => l.text)).toEqual(['a', 'b', 'c']);
  });

  it('keeps the first line of a box lower than one line, for the drawing to clip', () => {
    expect(texts({ text: 'a b', width: 10, height: 5, fontSize: 10 })).toEqual(['a']);
  });

  it('places each line by its own width: left, centre or right', () => {
    const at = (align: TextLayoutInput['align']) => lay({ text: 'aaaaaa b', width: 70, align }).map((l) => [l.text, l.x, l.width]);
    expect(at('left')).toEqual([['aaaaaa', 0, 60], ['b', 0, 10]]);
    expect(at('center')).toEqual([['aaaaaa', 5, 60], ['b', 30, 10]]);
    expect(at('right')).toEqual([['aaaaaa', 10, 60], ['b', 60, 10]]);
  });

  it('lays out nothing for an empty text, a zero width or a zero font size', () => {
    expect(lay({ text: '' })).toEqual([]);
    expect(lay({ text: '   \n ' })).toEqual([]);
    expect(lay({ text: 'a', width: 0 })).toEqual([]);
    expect(lay({ text: 'a', fontSize: 0 })).toEqual([]);
  });
});
