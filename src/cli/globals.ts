import type { Command, Option } from 'commander';
import { capsFor } from '../output/flags.js';

/**
 * Which global options each command honours, beyond the script flags it declares itself
 * (src/output/flags.ts): its help offers those and no others (docs/cli-contract.md §2, "Help").
 * Every command is listed; test/commands/help/globals.test.ts checks none is missing.
 */
const CONNECT = ['--profile', '--base-url', '--website', '--local', '--timeout', '--verbose', '--json'] as const;

export const GLOBALS_OF: Readonly<Record<string, readonly string[]>> = {
  'finance summary': CONNECT,
  'ads create': CONNECT,
  'listeners create': CONNECT,
  'posts schedule': CONNECT,
  'learnings list': CONNECT,
  'nurture list': CONNECT,
  'visibility grid': CONNECT,
  'brand subjects': CONNECT,
  'crm agents': CONNECT,
  api: CONNECT,
  'auth login': ['--profile', '--base-url', '--timeout', '--verbose', '--json'],
  'auth status': ['--profile', '--base-url', '--local', '--timeout', '--verbose', '--json'],
  'auth logout': ['--profile', '--json'],
  'profiles list': ['--json'],
  'profiles use': [],
  'profiles remove': [],
  serve: [],
  'local init': ['--profile', '--json'],
  'local keys create': ['--website', '--json'],
  'local keys list': ['--json'],
  'local keys revoke': ['--json'],
  'local reset': ['--website', '--json'],
  'local restore': ['--json'],
  'local copy': ['--json'],
  'local migrate': ['--json', '--verbose'],
  'local seed': ['--json'],
  'local export': [],
  'local websites': ['--json'],
  'local posts': ['--website', '--json'],
  'local wait': ['--timeout'],
  'mcp config': ['--profile', '--base-url', '--local', '--json'],
  'mcp stdio': ['--profile', '--base-url', '--local', '--verbose'],
  completion: [],
  version: ['--json'],
};

/** Offered by every command: colour is a matter of the terminal, not of the command. */
const EVERYWHERE = ['--no-color'];

const SCRIPT_FLAGS = { jq: '--jq', csv: '--csv', jsonl: '--jsonl', quiet: '--quiet' } as const;

/** `finance summary` for `cr finance summary`. */
export function commandPathOf(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** The long names of the global options a command honours. */
export function globalsOf(cmd: Command): Set<string> {
  const caps = capsFor(cmd);
  const scripts: string[] = (Object.keys(SCRIPT_FLAGS) as (keyof typeof SCRIPT_FLAGS)[]).filter((k) => caps[k]).map((k) => SCRIPT_FLAGS[k]);
  // Commands that print rows print tables: they take the table and CSV shapers too.
  if (caps.csv) scripts.push('--csv-safe', '--wide', '--no-headers');
  return new Set([...(GLOBALS_OF[commandPathOf(cmd)] ?? []), ...scripts, ...EVERYWHERE]);
}

/**
 * Help's global options: once, under their own heading, in the root help (`cr --help`); a
 * command's help lists those it honours; a group's help (its verbs) none.
 */
export function visibleGlobalOptions(cmd: Command): Option[] {
  if (!cmd.parent || cmd.commands.length > 0) return [];
  let root = cmd;
  while (root.parent) root = root.parent;
  const own = globalsOf(cmd);
  return root.options.filter((o) => !o.hidden && o.long !== '--version' && own.has(o.long ?? ''));
}
