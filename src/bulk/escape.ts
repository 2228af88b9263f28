/** The bulk run escapes with the one escaping function of the CLI (src/render/escape.ts). */
export { escapeControls } from '../render/escape.js';
