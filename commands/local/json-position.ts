/**
 * Where a JSON syntax error is, as an editor shows it: `line 3, column 18`. Node 20's
 * JSON.parse names only a character position (`… in JSON at position 32`); newer ones also
 * give `(line 3 column 18)`, then nothing is added. Lines are counted by LF, columns in
 * characters from 1.
 */
export function withLineAndColumn(message: string, text: string): string {
  if (/\(line \d+ column \d+\)/.test(message)) return message;
  const at = /at position (\d+)/.exec(message);
  if (!at) return message;
  const position = Math.min(Number(at[1]), text.length);
  const before = text.slice(0, position);
  const line = (before.match(/\n/g)?.length ?? 0) + 1;
  const column = position - (before.lastIndexOf('\n') + 1) + 1;
  return `${message} (line ${line}, column ${column})`;
}
