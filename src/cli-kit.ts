import { Option, type Command } from 'commander';
import { UsageError } from './errors.js';

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

/** The --store option of every command that works on a local store file. */
export const storeOption = () => new Option('--store <path>', 'store file (default: $CR_STORE or the per-user data folder)');
