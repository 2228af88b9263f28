const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const COMMA = 0x2c;
const COLON = 0x3a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The UTF-8 size of `JSON.stringify(value, null, 2)`, from `compact` = `JSON.stringify(value)`,
 * without making the indented text: the indented form is the compact one (which has no
 * whitespace outside strings) with a newline and two spaces a level before each member and
 * before the closing bracket of a non-empty object or array, and a space after each colon.
 *
 * Why: the group commit measures what each write adds to the snapshot this way (intake.ts);
 * stringifying each write a second time, indented, took ~1.5 µs for a listener insert against
 * ~0.6 µs for this scan (Node 20), about 1 % of `cr serve`'s CPU per durable write
 * (docs/benchmarks-analysis.md, "Build against build").
 */
export function indentedJsonBytes(compact: string): number {
  let extra = 0;
  let depth = 0;
  const n = compact.length;
  for (let i = 0; i < n; i++) {
    const c = compact.charCodeAt(i);
    if (c === QUOTE) {
      // To the closing quote: one not escaped by an odd run of backslashes.
      let j = i;
      for (;;) {
        j = compact.indexOf('"', j + 1);
        if (j === -1) return Buffer.byteLength(compact) + extra; // not JSON.stringify's: no closing quote
        let k = j - 1;
        while (compact.charCodeAt(k) === BACKSLASH) k--;
        if ((j - 1 - k) % 2 === 0) break;
      }
      i = j;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      const next = compact.charCodeAt(i + 1);
      if (next === CLOSE_OBJECT || next === CLOSE_ARRAY) {
        i++; // {} and [] stay as they are
        continue;
      }
      depth++;
      extra += 1 + 2 * depth;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
      extra += 1 + 2 * depth;
    } else if (c === COMMA) {
      extra += 1 + 2 * depth;
    } else if (c === COLON) {
      extra += 1;
    }
  }
  return Buffer.byteLength(compact) + extra;
}
