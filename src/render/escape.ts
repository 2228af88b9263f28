/**
 * The one escaping of text that came from the API, a store or a file before it reaches a
 * terminal, a pipe or a log (docs/cli-contract.md "At a terminal"): C0 controls, DEL, C1 controls and
 * ESC are shown as `\xNN` (bidirectional overrides as `\uNNNN`), so a hostile name cannot set the window title, clear the
 * screen, draw a hyperlink or start a C1 CSI (0x9b). Tab and newline are kept only where
 * the output is multi-line text; a table cell, a TSV cell and an error line are one line.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters escaped.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: as above, tab and newline kept.
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: a quick test before any work.
const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

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
