import { Command } from 'commander';
import type { Context } from '../../src/context.js';
import { withExamples } from '../../src/cli-kit.js';
import { UsageError } from '../../src/errors.js';
import { maskKey } from '../../src/redact.js';
import { render } from '../../src/render/output.js';

interface ProfileRow {
  name: string;
  active: boolean;
  baseUrl: string | null;
  key: string | null;
  crmSegment: string;
}

export function register(program: Command, ctx: Context): void {
  const group = new Command('profiles').description('Stored key profiles');
  group.addCommand(
    withExamples(new Command('list').description('list stored profiles (keys masked)').action(() => list(ctx)), ['cr profiles list', 'cr profiles list --json']),
  );
  group.addCommand(
    withExamples(new Command('use').description('make a profile the active one').argument('<name>').action((name: string) => use(ctx, name)), ['cr profiles use staging']),
  );
  group.addCommand(
    withExamples(new Command('remove').description('delete a profile and its key').argument('<name>').action((name: string) => remove(ctx, name)), ['cr profiles remove staging']),
  );
  program.addCommand(group);
}

async function list(ctx: Context): Promise<void> {
  const store = await ctx.profiles();
  const active = store.activeName();
  const rows: ProfileRow[] = Object.entries(store.all())
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, p]) => ({ name, active: name === active, baseUrl: p.baseUrl ?? null, key: p.apiKey ? maskKey(p.apiKey) : null, crmSegment: p.crmSegment ?? 'crm' }));
  await render(ctx.io, { json: ctx.globals.json, data: rows }, {
    rows,
    columns: [
      { header: '', value: (r) => (r.active ? '*' : '') },
      { header: 'PROFILE', value: (r) => r.name },
      { header: 'BASE URL', value: (r) => r.baseUrl ?? '-' },
      { header: 'KEY', value: (r) => r.key ?? '(none)' },
    ],
    empty: 'No profiles yet. Run `cr auth login` or `cr local init`.',
  });
}

async function use(ctx: Context, name: string): Promise<void> {
  const store = await ctx.profiles();
  if (!store.get(name)) throw new UsageError(`No profile named "${name}"`, 'run `cr profiles list`');
  store.use(name);
  ctx.notice(`Active profile: ${name}`);
}

async function remove(ctx: Context, name: string): Promise<void> {
  const store = await ctx.profiles();
  if (!store.get(name)) throw new UsageError(`No profile named "${name}"`, 'run `cr profiles list`');
  store.remove(name);
  ctx.notice(`Removed profile ${name}`);
}
