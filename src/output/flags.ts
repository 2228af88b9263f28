import type { Command } from 'commander';
import { UsageError } from '../errors.js';

/** The global flags for scripts (docs/cli-contract.md "For scripts"); `--json` stays in GlobalOptions. */
export interface ScriptFlags {
  jq?: string;
  csv: boolean;
  jsonl: boolean;
  quiet: boolean;
  /** `--csv-safe`: CSV for spreadsheets, formula-looking cells made inert (src/render/csv.ts). */
  csvSafe?: boolean;
  /** `--wide`: tables at a terminal with every cell whole. */
  wide?: boolean;
  /** `--no-headers`: false; tables and CSV without their header row. */
  headers?: boolean;
}

/** Which script flags a command honours: every one it does not name is refused before anything is sent. */
export interface OutputCaps {
  /** Prints data: `--jq` filters what `--json` would print. */
  jq?: boolean;
  /** Prints rows: `--csv`. */
  csv?: boolean;
  /** Lists items: `--jsonl`. */
  jsonl?: boolean;
  /** Lists or writes things with ids: `-q` prints the ids. */
  quiet?: boolean;
}

type Flag = keyof OutputCaps;
const FLAG_NAMES: Record<Flag, string> = { jq: '--jq', csv: '--csv', jsonl: '--jsonl', quiet: '--quiet' };

/** Every command that prints data, rows or ids says so once, where it is built. */
const capsOf = new WeakMap<Command, OutputCaps>();

/** Marks a command as honouring these script flags; returns it for chaining. */
export function scriptable(cmd: Command, caps: OutputCaps): Command {
  capsOf.set(cmd, caps);
  return cmd;
}

export function capsFor(cmd: Command): OutputCaps {
  return capsOf.get(cmd) ?? {};
}

const given = (f: ScriptFlags): Flag[] => (Object.keys(FLAG_NAMES) as Flag[]).filter((k) => (k === 'jq' ? f.jq !== undefined : f[k]));

const pathOf = (cmd: Command): string => {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return ['cr', ...names].join(' ');
};

/**
 * Refuses script flags the command does not honour, and combinations that would mix two
 * formats on standard output, before the command runs (docs/cli-contract.md: exit 2, nothing sent).
 * `--json --jq` is allowed: --jq filters the --json output.
 */
export function checkScriptFlags(cmd: Command, flags: ScriptFlags & { json: boolean }): void {
  const caps = capsFor(cmd);
  checkTableFlags(cmd, caps, flags);
  const used = given(flags);
  if (used.length === 0) return;
  const refused = used.filter((k) => !caps[k]);
  if (refused.length) {
    const ok = (Object.keys(FLAG_NAMES) as Flag[]).filter((k) => caps[k]).map((k) => FLAG_NAMES[k]);
    throw new UsageError(
      `${refused.map((k) => FLAG_NAMES[k]).join(' and ')} does not apply to \`${pathOf(cmd)}\``,
      ok.length ? `it takes ${ok.join(', ')}` : 'it prints no data for scripts',
    );
  }
  const names = used.map((k) => FLAG_NAMES[k]);
  if (flags.json && flags.jq === undefined) names.push('--json');
  if (names.length > 1) throw new UsageError(`${names.join(' and ')} cannot be combined: each one decides the whole output`, 'pass one of them');
}

/** `--wide` and `--no-headers` shape tables, `--csv-safe` shapes CSV: each only where that output exists. */
function checkTableFlags(cmd: Command, caps: OutputCaps, flags: ScriptFlags): void {
  const shaping = [flags.wide && '--wide', flags.headers === false && '--no-headers'].filter((f): f is string => !!f);
  if (shaping.length && !caps.csv) throw new UsageError(`${shaping.join(' and ')} does not apply to \`${pathOf(cmd)}\``, 'it prints no table');
  if (flags.csvSafe && !flags.csv) throw new UsageError('--csv-safe goes with --csv', 'pass --csv --csv-safe for CSV meant for a spreadsheet');
}
