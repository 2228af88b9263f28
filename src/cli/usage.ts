import type { Command, CommanderError } from 'commander';
import { UsageError } from '../errors.js';

/**
 * Usage errors from commander, in the CLI's words (docs/cli-contract.md §5: one
 * line, exit 2, a hint naming the help that answers it), and `cr help <command> [<sub>]`.
 */

/** Index in argv of the first operand (the command group), skipping global options and their values. */
export function commandIndex(argv: string[], valueFlags: ReadonlySet<string>): number {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') return i + 1 < argv.length ? i + 1 : -1;
    if (a.startsWith('-')) {
      if (valueFlags.has(a)) i++;
      continue;
    }
    return i;
  }
  return -1;
}

/**
 * `cr help posts schedule` is `cr posts schedule --help` (docs/cli-contract.md "At a terminal"); `cr help`
 * is `cr --help`. Returns argv without the help word (`bare`) and with `--help` (`argv`).
 */
export function expandHelpWord(argv: string[], valueFlags: ReadonlySet<string>): { argv: string[]; bare?: string[] } {
  const i = commandIndex(argv, valueFlags);
  if (i < 0 || argv[i] !== 'help' || argv[i - 1] === '--') return { argv };
  const bare = [...argv.slice(0, i), ...argv.slice(i + 1)];
  return { argv: [...bare, '--help'], bare };
}

/**
 * Whether `cr help …` names a command that does not exist under a command that has
 * subcommands (`cr help finance summry`): then it is an unknown command, not a help page.
 */
export function namesUnknownCommand(program: Command, bare: string[], valueFlags: ReadonlySet<string>): boolean {
  const path = commandPath(program, bare, valueFlags);
  let cmd = program;
  for (const w of path) cmd = cmd.commands.find((c) => c.name() === w)!;
  const words = bare.slice(Math.max(0, commandIndex(bare, valueFlags))).filter((a) => !a.startsWith('-'));
  return commandIndex(bare, valueFlags) >= 0 && words.length > path.length && cmd.commands.length > 0;
}

/** The deepest command argv names (`cr completion tcsh` → [completion]), for help hints. */
export function commandPath(program: Command, argv: string[], valueFlags: ReadonlySet<string>): string[] {
  const path: string[] = [];
  let cmd = program;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') break;
    if (a.startsWith('-')) {
      if (valueFlags.has(a)) i++;
      continue;
    }
    const sub = cmd.commands.find((c) => c.name() === a || c.aliases().includes(a));
    if (!sub) break;
    path.push(sub.name());
    cmd = sub;
  }
  return path;
}

/** Joins a message and its hint: `message; hint`, without a doubled stop (`fish.; run`). */
export function withHint(message: string, hint?: string): string {
  return hint ? `${message.replace(/[.\s]+$/, '')}; ${hint}` : message;
}

/** Turns a commander usage failure into our UsageError, with a hint naming the right help. */
export function fromCommander(error: CommanderError, argv: string[], program: Command, valueFlags: ReadonlySet<string>): UsageError | undefined {
  if (['commander.helpDisplayed', 'commander.version'].includes(error.code)) return undefined;
  const [first, ...rest] = error.message.replace(/^error: /, '').split('\n');
  const words = commandPath(program, argv, valueFlags);
  const help = `cr ${words.length ? words.join(' ') + ' ' : ''}--help`;
  // commander's own nearest-name suggestion, on its second line: "(Did you mean summary?)".
  const nearest = /\(Did you mean (.+)\?\)/.exec(rest.join(' '))?.[1];
  const suggested = `${first!}${nearest ? ` (did you mean ${nearest}?)` : ''}`;
  if (error.code === 'commander.unknownCommand') return new UsageError(suggested, `run \`${help}\` to see the commands`);
  if (error.code === 'commander.unknownOption') return new UsageError(suggested, `run \`${help}\``);
  if (error.code === 'commander.help') return new UsageError('missing command', `run \`${help}\` to see the commands`);
  if (error.code === 'commander.executeSubCommandAsync') return new UsageError(first!);
  return new UsageError(first!, `run \`${help}\``);
}
