import type { Command } from 'commander';
import { completionValues } from '../../src/cli/options.js';

/** One option as the completion scripts need it. */
export interface OptSpec {
  long?: string;
  short?: string;
  description: string;
  takesValue: boolean;
  choices?: readonly string[];
}

/** One command node: its path from the root (`[]` for the root, `['finance','summary']`). */
export interface CmdSpec {
  path: string[];
  description: string;
  options: OptSpec[];
  subcommands: CmdSpec[];
}

const HELP: OptSpec = { long: '--help', short: '-h', description: 'show help', takesValue: false };

/**
 * Reads the commander tree (every group loaded) into plain data, so the three scripts
 * are generated from the real commands and flags rather than a hand-kept list.
 */
export function readTree(cmd: Command, path: string[] = []): CmdSpec {
  const options: OptSpec[] = cmd.options
    .filter((o) => !o.hidden)
    .map((o) => ({
      long: o.long,
      short: o.short,
      description: o.description,
      takesValue: o.required || o.optional,
      choices: completionValues(o),
    }));
  return {
    path,
    description: cmd.description(),
    options: [...options, HELP],
    subcommands: cmd.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden).map((c) => readTree(c, [...path, c.name()])),
  };
}

export function allNodes(root: CmdSpec): CmdSpec[] {
  return [root, ...root.subcommands.flatMap(allNodes)];
}

/** Flags of an option, long first. */
export const flagsOf = (o: OptSpec): string[] => [o.long, o.short].filter((f): f is string => !!f);

/**
 * Options whose values exist only at run time: the scripts call back `cr __complete KIND`
 * (commands/completion/dynamic.ts), which reads the config without creating it.
 */
export const DYNAMIC_VALUES: Readonly<Record<string, string>> = { '--profile': 'profiles' };

/** Single-quoted for sh/bash/zsh/fish (fish accepts the same '\'' escape). */
export const q = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** The root's flags that every subcommand accepts too (not --help/--version, which are per command or root only). */
export const inheritedGlobals = (root: CmdSpec): OptSpec[] => root.options.filter((g) => g.long !== '--help' && g.long !== '--version');

/** The options offered after a command: its own, and below the root the root's inherited globals too. */
export function offeredOptions(root: CmdSpec): (n: CmdSpec) => OptSpec[] {
  const globals = inheritedGlobals(root);
  return (n) => (n === root ? n.options : [...n.options, ...globals]);
}

/** Every flag of the tree that takes a value: the shells' walk down the tree skips the word after it. */
export const valueFlagsOf = (nodes: CmdSpec[]): string[] => [
  ...new Set(
    nodes
      .flatMap((n) => n.options)
      .filter((o) => o.takesValue)
      .flatMap(flagsOf),
  ),
];
