import { closeSync, constants as fsConstants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import type { Command, Option } from 'commander';
import { UsageError } from '../../src/errors.js';
import { escapeControls } from '../../src/bulk/escape.js';
import { collect } from '../../src/cli/options.js';

/**
 * `cr serve --config FILE` (docs/shared-sandbox.md "One file for every server"): every option
 * of `cr serve` from one JSON object whose keys are the flags' names without their dashes
 * (`"rate-limit": 500`, `"no-migrate": true`, `"allowed-host": ["a", "b"]`), so N servers
 * start from one file. A flag given on the command line wins over the file's key. An unknown
 * key or a bad value is refused (exit 2) naming the key, by the same parsers as the flags.
 * Nothing of the file's values is printed: the store URL may carry a password.
 *
 * Sets the values on `cmd` as commander would have from the command line, so every option
 * (those added later too) is taken without a list here.
 */
export function applyConfigFile(cmd: Command, file: string, notice: (line: string) => void): void {
  const config = readConfig(file);
  warnIfPasswordShared(file, config, notice);
  const named = (key: string) => `--config ${escapeControls(file)}: "${escapeControls(key)}"`;
  for (const [key, value] of Object.entries(config)) {
    const option = cmd.options.find((o) => o.long === `--${key}`);
    if (!option || key === 'config' || key === 'help')
      throw new UsageError(`${named(key)} is not an option of cr serve`, 'keys are the flags of cr serve without their dashes (cr serve --help)');
    const attribute = option.attributeName();
    // The command line's value, or a variable's that commander read, stays.
    const source = cmd.getOptionValueSource(attribute);
    if (source === 'cli' || source === 'env') continue;
    try {
      const parsed = optionValue(option, value, cmd.getOptionValue(attribute), source === 'config');
      if (parsed !== undefined) cmd.setOptionValueWithSource(attribute, parsed, 'config');
    } catch (err) {
      if (!(err instanceof Error)) throw err;
      // The key and the rule, never the value: it may be a password, or megabytes of text.
      throw new UsageError(`${named(key)}: ${withoutValue(err.message)}`);
    }
  }
}

/**
 * A store URL with a password in a file others can read: said, as libpq says of a password
 * file it then ignores (docs/shared-sandbox.md "One file for every server"). Not refused: the
 * password may be a throw-away one on a machine of one user.
 */
function warnIfPasswordShared(file: string, config: Record<string, unknown>, notice: (line: string) => void): void {
  const store = config.store;
  if (typeof store !== 'string') return;
  let hasPassword = false;
  try {
    const url = new URL(store);
    // libpq takes `?password=` as the password too (src/server/store-pg/connection.ts).
    hasPassword = url.password !== '' || url.searchParams.has('password') || url.searchParams.has('sslpassword');
  } catch {
    return;
  }
  const mode = statSync(file).mode & 0o777;
  if (hasPassword && (mode & 0o077) !== 0)
    notice(
      `cr serve: --config ${escapeControls(file)} holds a database password and others can read it (mode ${mode.toString(8).padStart(4, '0')}): chmod 600 it, or give the password by PGPASSWORD or ~/.pgpass`,
    );
}

/** A serve config is a few lines: anything bigger is no such file (and /dev/zero never ends). */
export const CONFIG_MAX_BYTES = 1024 * 1024;

/** The parsers' messages end `, got "VALUE"` (src/cli/options.ts): cut, so a file's value is never shown. */
const withoutValue = (message: string) => message.replace(/[,;]? got .*$/s, '');

function readConfig(file: string): Record<string, unknown> {
  const text = readBounded(file);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the text around the fault: it may be the store's password.
    throw new UsageError(`--config ${escapeControls(file)} is not valid JSON`, `check it with: jq . ${escapeControls(file)}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new UsageError(`--config ${escapeControls(file)} must hold one JSON object ({"store": "postgres://…", "rate-limit": 500})`);
  return parsed as Record<string, unknown>;
}

/**
 * The file's text, read only if it is a regular file of at most CONFIG_MAX_BYTES (a device, a
 * FIFO or a huge file is refused at once, exit 2), and never more than that read even if it
 * grows meanwhile.
 */
function readBounded(file: string): string {
  const shown = escapeControls(file);
  let fd: number;
  try {
    // Non-blocking: opening a FIFO to read would otherwise wait for a writer before fstat could refuse it.
    fd = openSync(file, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
  } catch (err) {
    throw new UsageError(`cannot read --config ${shown} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new UsageError(`--config ${shown} is not a regular file`, 'give the path of a JSON file');
    if (st.size > CONFIG_MAX_BYTES) throw new UsageError(`--config ${shown} is over ${CONFIG_MAX_BYTES / 1024} KiB: a serve config is one small JSON object`);
    const buf = Buffer.alloc(CONFIG_MAX_BYTES + 1);
    let n = 0;
    for (let got = -1; got !== 0 && n < buf.length; n += got) got = readSync(fd, buf, n, buf.length - n, null);
    if (n > CONFIG_MAX_BYTES) throw new UsageError(`--config ${shown} is over ${CONFIG_MAX_BYTES / 1024} KiB: a serve config is one small JSON object`);
    return buf.subarray(0, n).toString('utf8');
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`cannot read --config ${shown} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  } finally {
    closeSync(fd);
  }
}

/** An option whose value is text, not a number: one without a parser (a host, a file), or a path or URL (`--store <path>`). */
const takesText = (option: Option) => (!option.parseArg && !option.argChoices) || /<(path|file|url)>/.test(option.flags);

/**
 * A key's value as the option takes it: true/false for a flag without a value (false leaves
 * it unset), a string or number through the option's own parser and choices, a list of them
 * for a repeatable option (one whose parser is `collect`, src/cli/options.ts).
 */
function optionValue(option: Option, value: unknown, current: unknown, fromFile: boolean): unknown {
  // A flag that takes no value (commander's isBoolean() leaves out the --no- ones).
  if (!option.required && !option.optional) {
    if (typeof value !== 'boolean') throw new Error('must be true or false');
    if (!value) return undefined;
    return !option.negate;
  }
  const repeatable = option.parseArg === collect;
  if (Array.isArray(value) && !repeatable) throw new Error('takes one value, not a list');
  const values = Array.isArray(value) ? value : [value];
  let acc: unknown = fromFile ? current : undefined;
  for (const v of values) {
    if (typeof v !== 'string' && typeof v !== 'number') throw new Error('must be a string or a number');
    // An option read as text (a path, a URL, a host) takes a string: `"store": 123` is no file `./123`.
    if (typeof v === 'number' && takesText(option)) throw new Error('must be a string');
    const text = String(v);
    if (option.argChoices && !option.argChoices.includes(text)) throw new Error(`must be one of ${option.argChoices.join(', ')}`);
    acc = option.parseArg ? option.parseArg(text, acc as never) : text;
  }
  return acc;
}
