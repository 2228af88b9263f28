import { describe, expect, it } from 'vitest';
import { localImportsOf, sourceFiles } from './imports.js';

/**
 * Which part of the code may import which (CONTRIBUTING.md, "Layers"), written once: each layer,
 * a folder or a file, and the layers it may import besides itself. src/api/ and the four shared
 * modules at the top of src/ (errors, ids, now, when) may be imported by every layer and import
 * nothing but each other and src/api/. Type-only imports count too: a layer that needs another's
 * types to compile is tied to its design. A file belongs to the longest layer that holds it.
 */
const SHARED = ['src/api', 'src/errors.ts', 'src/ids.ts', 'src/now.ts', 'src/when.ts'];
const HTTP_LIMITS = ['src/http/deadline.ts', 'src/http/read-body.ts'];
// Text safety: escaping for terminals and logs, JSON that survives any string.
const ESCAPING = ['src/render/escape.ts', 'src/render/safe-json.ts'];
const SERVER_TEXT = ['src/server/json.ts', 'src/server/log-text.ts'];

const MAY_IMPORT: Record<string, string[]> = {
  // The program: start-up, the frame, the command groups it loads.
  'src/main.ts': ['src/cli.ts', 'src/cli', 'src/io', 'src/startup'],
  'src/cli.ts': ['src/cli', 'commands', 'src/config', 'src/http', 'src/io', 'src/output', 'src/render', 'src/startup'],
  'src/cli': ['commands', 'src/config', 'src/http', 'src/io', 'src/local', 'src/output', 'src/render', 'src/startup'],
  'src/startup': [],
  commands: ['src/cli', 'src/bulk', 'src/local', 'src/mcp-bridge', 'src/server', 'src/http', 'src/render', 'src/output', 'src/io', 'src/config', 'src/startup'],
  // What commands are built on: each gets the frame's Context, never another command.
  'src/bulk': ['src/cli/context.ts', 'src/http', 'src/render', 'src/io', 'src/config'],
  'src/mcp-bridge': ['src/cli/context.ts', 'src/local', 'src/http', 'src/render', 'src/config', 'src/startup'],
  'src/local': ['src/server', 'src/http', 'src/render', 'src/config'],
  // The client side's parts, which know no command, server or mode.
  'src/http': ['src/io', 'src/config', 'src/startup', 'src/render/escape.ts'],
  'src/render': ['src/io', 'src/output', ...HTTP_LIMITS],
  'src/output': ['src/io', 'src/render', ...HTTP_LIMITS],
  'src/io': ['src/render'],
  'src/config': [],
  // The server uses no part of the CLI: only the escaping of output, config's store URLs and the
  // version. Inside it: transport (carriers that translate) → app (the router and its chain) →
  // ops (seed, fixtures, init, reset) → domain (handlers, compute, keys, scope and roles) →
  // stores; its loose files start, wire and stop a server, and json.ts / log-text.ts are the
  // text helpers every layer may use.
  'src/server': [...ESCAPING, 'src/config', 'src/startup'],
  'src/server/transport': ['src/server/app', ...SERVER_TEXT, ...ESCAPING],
  'src/server/app': ['src/server/ops', 'src/server/domain', 'src/server/store', 'src/server/store-pg', ...SERVER_TEXT, ...ESCAPING, 'src/config', 'src/startup'],
  'src/server/ops': ['src/server/domain', 'src/server/store', 'src/server/store-pg', ...SERVER_TEXT, ...ESCAPING, 'src/config', 'src/startup'],
  'src/server/domain': ['src/server/store', ...SERVER_TEXT, ...ESCAPING, 'src/config'],
  // Pure computations the stores reuse (the finance totals, answers kept as JSON text).
  'src/server/store': ['src/server/domain/compute', 'src/server/store-pg', ...SERVER_TEXT, ...ESCAPING, 'src/config'],
  'src/server/store-pg': ['src/server/domain/compute', 'src/server/store', ...SERVER_TEXT, ...ESCAPING, 'src/config'],
  ...Object.fromEntries(SHARED.map((s) => [s, SHARED])),
};

const LAYERS = Object.keys(MAY_IMPORT).sort((a, b) => b.length - a.length);
const within = (file: string, layer: string) => file === layer || file.startsWith(`${layer}/`);

/** The layer a file belongs to: the longest that holds it. */
const layerOf = (file: string): string | undefined => LAYERS.find((l) => within(file, l));

/** The imports of `file` its layer may not make, as `file -> import`. */
function violations(file: string, imports: string[]): string[] {
  const layer = layerOf(file);
  if (layer === undefined) return [`${file}: in no layer`];
  const allowed = [layer, ...MAY_IMPORT[layer]!, ...SHARED];
  return imports.filter((t) => !allowed.some((l) => within(t, l))).map((t) => `${file} -> ${t}`);
}

describe('layers of src/ and commands/', () => {
  const files = sourceFiles('src', 'commands').filter((f) => !f.startsWith('src/types/'));

  it('every file is in a layer, and imports only what its layer may', () => {
    expect(files.flatMap((f) => violations(f, localImportsOf(f)))).toEqual([]);
  });

  it('every layer holds files (the table names no folder that is gone)', () => {
    expect(Object.keys(MAY_IMPORT).filter((l) => !files.some((f) => within(f, l)))).toEqual([]);
  });

  it('finds an import across layers (the check can fail)', () => {
    expect(violations('src/api/x.ts', ['src/api/schemas/ads.ts', 'src/server/app/operations.ts'])).toEqual(['src/api/x.ts -> src/server/app/operations.ts']);
    expect(violations('src/server/x.ts', ['src/api/routes.ts', 'src/cli/context.ts', 'src/http/client.ts'])).toHaveLength(2);
    expect(violations('src/server/store/x.ts', ['src/server/store/lock.ts', 'src/server/transport/fetch-handler.ts'])).toEqual(['src/server/store/x.ts -> src/server/transport/fetch-handler.ts']);
    expect(violations('src/bulk/x.ts', ['src/cli/context.ts', 'src/cli/groups.ts'])).toEqual(['src/bulk/x.ts -> src/cli/groups.ts']);
  });

  it('a command uses no other command group', () => {
    const crossing = files
      .filter((f) => f.startsWith('commands/'))
      .flatMap((f) => {
        const group = /^commands\/[\w-]+\//.exec(f)?.[0] ?? 'commands/';
        return localImportsOf(f)
          .filter((t) => t.startsWith('commands/') && !t.startsWith(group))
          .map((t) => `${f} -> ${t}`);
      });
    expect(crossing).toEqual([]);
  });
});
