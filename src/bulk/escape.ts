/**
 * Text from the plan file or the API is never written raw to a terminal or a log
 * (cli.md "At a terminal"): C0 controls (tab and newline too: a row is one line), DEL, C1
 * and ESC are shown as `\xNN`.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

export function escapeControls(text: string): string {
  return text.replace(CONTROL, (c) => '\\x' + c.charCodeAt(0).toString(16).padStart(2, '0'));
}
