/**
 * The one escaping of text that came from the API, a store or a file before it reaches a
 * terminal, a pipe or a log (docs/cli-contract.md "At a terminal"): C0 controls, DEL, C1 controls and
 * ESC are shown as `\xNN` (the invisible direction marks and overrides, and the line and
 * paragraph separators, as `\uNNNN`), so a hostile name cannot set the window title, clear the
 * screen, draw a hyperlink, start a C1 CSI (0x9b) or reorder what follows it on the line. Tab
 * and newline are kept only where the output is multi-line text; a table cell, a TSV cell and an
 * error line are one line.
 */

/**
 * The characters that change how the text around them is shown without showing themselves:
 * the Arabic letter mark, left-to-right and right-to-left marks, the embeddings and overrides
 * (U+202A-U+202E), the isolates (U+2066-U+2069), the deprecated symmetric-swapping, shaping and
 * digit-shape switches (U+206A-U+206F) and the interlinear annotation controls (U+FFF9-U+FFFB,
 * for use inside one program only: the annotated text may be drawn elsewhere or not at all),
 * and the invisible characters that no exchanged name needs but that make two names look alike:
 * the zero-width space (U+200B), the word joiner and invisible operators (U+2060-U+2064) and
 * the byte order mark / zero-width no-break space (U+FEFF). The zero-width joiner and
 * non-joiner (U+200C, U+200D) stay as they are: emoji sequences and Persian and Indic text
 * need them, and a name that merely looks like another is told apart by its id, as with
 * look-alike letters. A regular-expression class body, shared with src/render/safe-json.ts.
 */
export const INVISIBLE_FORMAT = '\\u061c\\u200b\\u200e\\u200f\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u206f\\ufeff\\ufff9-\\ufffb';
const C0_C1 = '\\u0000-\\u001f\\u007f-\\u009f';
const C0_C1_BUT_LINES = '\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f';
/** The line and paragraph separators (a class body too, shared with src/render/safe-json.ts). */
export const SEPARATORS = '\\u2028\\u2029';
const ESCAPED = `[${C0_C1}${SEPARATORS}${INVISIBLE_FORMAT}]`;
const CONTROL = new RegExp(ESCAPED, 'g');
const CONTROL_BUT_LINES = new RegExp(`[${C0_C1_BUT_LINES}${SEPARATORS}${INVISIBLE_FORMAT}]`, 'g');
const ANY_CONTROL = new RegExp(ESCAPED);

/** `\x1b` for a byte-sized control, `\u202e` for a bidirectional override (which reorders what follows). */
const hex = (c: string) => {
  const code = c.charCodeAt(0);
  return code > 0xff ? '\\u' + code.toString(16).padStart(4, '0') : '\\x' + code.toString(16).padStart(2, '0');
};

export function escapeControls(text: string, opts: { multiline?: boolean } = {}): string {
  if (!ANY_CONTROL.test(text)) return text;
  return text.replace(opts.multiline ? CONTROL_BUT_LINES : CONTROL, hex);
}

/** One line for a cell: runs of tabs and line breaks become one space, other controls are escaped. */
export function oneLineCell(text: string): string {
  if (!ANY_CONTROL.test(text)) return text;
  return escapeControls(text.replace(/[\t\r\n]+/g, ' '));
}
