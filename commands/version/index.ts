import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { withExamples } from '../../src/cli/options.js';
import { scriptable } from '../../src/output/flags.js';
import { writeJson } from '../../src/render/json.js';
import { buildInfo } from '../../src/startup/build-info.js';
import type { StartupCache } from '../../src/startup/startup-cache.js';

/** `cr version`: what is running, for bug reports (docs/commands.md "cr version"); `cr --version` stays one line. */
export function register(program: Command, ctx: Context): void {
  program.addCommand(
    scriptable(
      withExamples(
        new Command('version')
          .description('show the version, the commit and date it was built from, the Node it runs on and whether the start-up cache is in use')
          .action(() => showVersion(ctx)),
        ['cr version', 'cr version --json', 'cr version --jq .commit'],
      ),
      { jq: true },
    ),
  );
}

const cacheText = (c: StartupCache): string =>
  c.kind === 'none' ? `not in use (${c.status})` : `${c.inUse ? 'in use' : 'not in use'} (${c.kind}, ${c.status}${c.location ? `, ${c.location}` : ''})`;

export async function showVersion(ctx: Context): Promise<void> {
  const info = buildInfo();
  if (ctx.globals.jq !== undefined) {
    const { writeJq } = await import('../../src/render/jq.js');
    return writeJq(ctx.io, info, ctx.globals.jq, ctx.globals);
  }
  if (ctx.globals.json) return writeJson(ctx.io, info);
  const lines = [
    ['version', info.version],
    ['commit', info.commit],
    ['built', info.buildDate],
    ['node', info.node],
    ['platform', `${info.platform}-${info.arch}${info.singleExecutable ? ' (single executable)' : ''}`],
    ['start-up cache', cacheText(info.startupCache)],
  ];
  const tty = ctx.io.tty.out;
  // The cache's location is a path, which may hold anything: shown escaped like any other text.
  const { escapeControls } = await import('../../src/render/escape.js');
  ctx.io.out.write(lines.map(([k, v]) => (tty ? `${k!.padEnd(15)}: ${escapeControls(v!)}` : `${k}\t${escapeControls(v!)}`)).join('\n') + '\n');
}
