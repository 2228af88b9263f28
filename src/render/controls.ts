import { escapeControls } from './escape.js';

export { escapeControls } from './escape.js';

/**
 * The text as it may go to this stream: escaped for a terminal (multi-line text keeps its
 * tabs and line breaks; src/render/escape.ts is the one escaping), untouched for a pipe or
 * a file, so scripts get every byte.
 */
export const forStream = (text: string, tty: boolean): string => (tty ? escapeControls(text, { multiline: true }) : text);
