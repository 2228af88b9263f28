/**
 * Control characters (C0 but tab and newline, DEL, C1) and bidirectional overrides, which
 * a terminal would act on: text from the API or a store never reaches a terminal raw
 * (CONTRIBUTING.md standards). Shown as `\u001b` instead. Piped output stays exact.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

export const escapeControls = (text: string): string => text.replace(CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** The text as it may go to this stream: escaped for a terminal, untouched for a pipe or file. */
export const forStream = (text: string, tty: boolean): string => (tty ? escapeControls(text) : text);
