import stringWidth from 'string-width';

/** Printable ASCII: one column per character, no need for the grapheme tables. */
const PLAIN = /^[\x20-\x7e]*$/;

/**
 * Blank characters string-width counts as no columns (they are default-ignorable) but that
 * terminals draw (glibc wcwidth, xterm and VTE agree): the Hangul fillers U+115F and U+3164 take
 * two columns, the half-width filler U+FFA0 and the soft hyphen U+00AD one. Counted as drawn, a
 * name made of them cannot push its row past the terminal (docs/cli-contract.md "Tables keep their shape").
 */
const DRAWN_BLANK = /[\u00ad\u115f\u3164\uffa0]/g;
const undercount = (text: string): number => {
  let extra = 0;
  for (const [c] of text.matchAll(DRAWN_BLANK)) extra += c === '\u115f' || c === '\u3164' ? 2 : 1;
  return extra;
};

/**
 * Columns a text takes on a terminal: wide characters (CJK, most emoji) take two,
 * combining marks none; ANSI styling takes none. The ASCII fast path keeps large tables
 * linear and cheap (string-width segments graphemes, which costs microseconds a cell).
 */
export function displayWidth(text: string): number {
  return PLAIN.test(text) ? text.length : stringWidth(text) + undercount(text);
}

let segmenter: Intl.Segmenter | undefined;

/** One grapheme's width: printable ASCII is one column, anything else asks string-width. */
const segmentWidth = (g: string) => (g.length === 1 && g >= ' ' && g <= '~' ? 1 : stringWidth(g) + undercount(g));

/**
 * The text cut to at most `max` columns, ending in `…` when anything was cut. Never splits a
 * grapheme. `width` is the text's display width when the caller measured it already.
 */
export function cutToWidth(text: string, max: number, width = displayWidth(text)): string {
  if (width <= max) return text;
  if (max <= 0) return '';
  if (PLAIN.test(text)) return text.slice(0, max - 1) + '…';
  segmenter ??= new Intl.Segmenter();
  let out = '';
  let used = 0;
  for (const { segment } of segmenter.segment(text)) {
    const w = segmentWidth(segment);
    if (used + w > max - 1) break;
    out += segment;
    used += w;
  }
  return out + '…';
}
