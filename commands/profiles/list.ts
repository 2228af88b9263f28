import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { withExamples } from '../../src/cli/options.js';
import { scriptable } from '../../src/output/flags.js';
import { CRM_PATH_SEGMENT } from '../../src/api/vocabulary.js';
import { maskKey, redactUrlPassword } from '../../src/config/redact.js';
import { render } from '../../src/render/output.js';

interface ProfileRow {
  name: string;
  active: boolean;
  baseUrl: string | null;
  key: string | null;
  crmSegment: string;
}

export const listCommand = (ctx: Context) =>
  scriptable(
    withExamples(
      new Command('list').description('list stored profiles (keys masked)').action(() => list(ctx)),
      ['cr profiles list', 'cr profiles list --json', 'cr profiles list -q'],
    ),
    { jq: true, csv: true, jsonl: true, quiet: true },
  );

export async function list(ctx: Context): Promise<void> {
  const store = await ctx.profiles();
  const active = store.activeName();
  const rows: ProfileRow[] = Object.entries(store.all())
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, p]) => ({
      name,
      active: name === active,
      baseUrl: p.baseUrl ? redactUrlPassword(p.baseUrl) : null,
      key: p.apiKey ? maskKey(p.apiKey) : null,
      crmSegment: p.crmSegment ?? CRM_PATH_SEGMENT,
    }));
  if (rows.length === 0) {
    // On stderr: an empty list is success, and stdout carries only data (`[]` with --json).
    ctx.notice('No profiles yet: `cr auth login` or `cr local init` makes one.');
    const g = ctx.globals;
    if (!(g.json || g.jq !== undefined || g.csv || g.jsonl || g.quiet)) return;
  }
  await render(
    ctx.io,
    { ...ctx.globals, data: rows, items: rows },
    {
      rows,
      id: (r) => r.name,
      // The profile's name is its id (`cr profiles use NAME`): first, as every list's id.
      columns: [
        { header: 'PROFILE', kind: 'code', field: 'name', value: (r: ProfileRow) => r.name },
        { header: 'ACTIVE', kind: 'code', field: 'active', value: (r) => (r.active ? '*' : ''), plain: (r) => r.active },
        { header: 'BASE URL', field: 'baseUrl', value: (r) => r.baseUrl ?? '-', plain: (r) => r.baseUrl },
        { header: 'KEY', kind: 'code', field: 'key', value: (r) => r.key ?? '(none)', plain: (r) => r.key },
      ],
    },
  );
}
