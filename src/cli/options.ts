import { Option, type Command } from 'commander';
import { UsageError } from '../errors.js';
import { checkUuid } from '../ids.js';
import { checkDatabaseUrl, isDatabaseUrl } from '../config/store-url.js';

/** Appends real examples to a command's --help (docs/cli-contract.md: one or two per command). */
export function withExamples(cmd: Command, examples: string[]): Command {
  return cmd.addHelpText('after', '\nExamples:\n' + examples.map((e) => `  $ ${e}`).join('\n') + '\n');
}

/** commander argParser for integers in [min, max], with a message naming the flag. */
export const intArg =
  (flag: string, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  (value: string): number => {
    if (!/^-?\d+$/.test(value.trim())) throw new UsageError(`${flag} must be an integer, got "${value}"`);
    const n = Number(value);
    if (n < min) throw new UsageError(`${flag} must be at least ${min}, got ${n}`);
    if (n > max) throw new UsageError(`${flag} must be at most ${max}, got ${value.trim()}`);
    return n;
  };

/** commander argParser restricting a flag to a fixed set of values. */
export const oneOf =
  (flag: string, values: readonly string[]) =>
  (value: string): string => {
    if (!values.includes(value)) throw new UsageError(`${flag} must be one of ${values.join(', ')}; got "${value}"`);
    return value;
  };

/** Edit distance (insertions, deletions, substitutions) between two short words. */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/** The value a typo most likely meant: the nearest within a third of its length, as commander suggests commands. */
export function nearest(value: string, values: readonly string[]): string | undefined {
  const lower = value.toLowerCase();
  let best: string | undefined;
  let bestD = Math.max(1, Math.floor(lower.length / 3)) + 1;
  for (const v of values) {
    const d = distance(lower, v);
    if (d < bestD) [best, bestD] = [v, d];
  }
  return best;
}

/**
 * commander argParser for a value of the API's vocabulary (the enums of the endpoint table's
 * schemas, generated into src/api/generated/request-schemas.ts): anything else is exit 2 before
 * a request, with the values and the nearest one (docs/cli-contract.md §5).
 */
export const choice =
  (flag: string, values: readonly string[]) =>
  (value: string): string => {
    if (values.includes(value)) return value;
    const near = nearest(value, values);
    throw new UsageError(`${flag} must be one of ${values.join(', ')}; got "${value}"`, near ? `did you mean ${near}?` : undefined);
  };

/** commander argParser for an id: the API's uuid format, checked before anything is sent. */
export const uuidArg =
  (what: string) =>
  (value: string): string =>
    checkUuid(what, value);

/** Collects a repeatable flag into an array. */
export const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Values shell completion offers for an option that does not restrict itself to them. */
const completions = new WeakMap<Option, readonly string[]>();

/**
 * Tells `cr completion` which values to offer after this option (the API vocabulary, e.g.
 * nurture statuses) without making commander refuse others: the server judges the value.
 */
export function completeWith(option: Option, values: readonly string[]): Option {
  completions.set(option, values);
  return option;
}

/** The values to complete after an option: its choices, else those given to completeWith. */
export const completionValues = (option: Option): readonly string[] | undefined => option.argChoices ?? completions.get(option);

/**
 * An option restricted to a vocabulary, checked by `choice` (the values and the nearest one,
 * docs/cli-contract.md "For scripts") rather than commander's `.choices()`, whose message has
 * no suggestion; completion still offers the values, and the help lists them.
 */
export const vocabularyOption = (flags: string, description: string, values: readonly string[]): Option => {
  const option = new Option(flags, `${description}: ${values.join(', ')}`);
  return completeWith(option.argParser(choice(option.long!, values)), values);
};

/**
 * A store named on the command line (`flag`: --store, or `cr local copy`'s --from and --to): a
 * file path as given, or a database URL checked before anything is opened or printed, so a
 * password that would be misread is refused (exit 2) without being echoed
 * (src/config/store-url.ts). Never empty (`--store "$UNSET"`), nor only blanks (`--store ' '`,
 * which named a file called " "): refused the same way by every command, where it was the
 * current folder to some and the default store to others. A path with blanks around other
 * characters is kept as given.
 */
export const storeArg =
  (flag: string) =>
  (value: string): string => {
    if (value.trim() === '')
      throw new UsageError(
        `${flag} needs a store file or a postgres:// URL, not an empty value`,
        flag === '--store' ? 'leave --store out for the default store ($CR_STORE, else the per-user data folder)' : undefined,
      );
    return isDatabaseUrl(value) ? checkDatabaseUrl(value) : value;
  };

/** The --store option of every command that works on a local store file. */
export const storeOption = () =>
  new Option('--store <path>', 'store file or postgres:// URL (default: $CR_STORE or the per-user data folder)').argParser(storeArg('--store'));
