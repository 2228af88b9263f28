/**
 * How a fixture's problems echo what the file holds (docs/fixtures.md), as a bulk plan's do
 * (src/bulk/echo.ts, which the server does not import): a name or value past 200 characters
 * is cut there and its length named, so a 20 MB value is never one 20 MB error line.
 */
export const ECHO_CHARS = 200;

/** A name as a path shows it (a collection's, a key's): `first 200 characters… (N characters)`. */
export const cutName = (name: string) =>
  name.length <= ECHO_CHARS ? name : `${name.slice(0, ECHO_CHARS)}… (${name.length.toLocaleString('en-US')} characters)`;

/** `"value"`, cut the same way. */
export const quotedName = (name: string) =>
  name.length <= ECHO_CHARS ? JSON.stringify(name) : `${JSON.stringify(name.slice(0, ECHO_CHARS))}… (${name.length.toLocaleString('en-US')} characters)`;

/** A message that quotes a value (a schema's `got "…"`): its first 400 characters, then its length. */
export const clippedMessage = (message: string, max = 2 * ECHO_CHARS) =>
  message.length <= max ? message : `${message.slice(0, max)}… (${message.length.toLocaleString('en-US')} characters)`;
