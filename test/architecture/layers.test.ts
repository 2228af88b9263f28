import { describe, expect, it } from 'vitest';
import { localImportsOf, sourceFiles } from './imports.js';

/**
 * Which part of the code may import which (CONTRIBUTING.md, "Layers"): each rule names the files
 * it holds for and the files they must not import. Type-only imports count too: a layer that
 * needs another's types to compile is tied to its design.
 */
interface Rule {
  what: string;
  from: RegExp;
  never: RegExp;
}

// The CLI itself: the commands, and what builds and runs them.
const CLI = String.raw`^(commands/|src/(context|cli|cli-[\w-]+|groups|main|launch|run-bundle)\.ts$)`;

const RULES: Rule[] = [
  { what: 'src/api/ imports nothing of the project outside itself', from: /^src\/api\//, never: /^(?!src\/api\/)/ },
  {
    what: 'the shared modules at the top of src/ import only each other and src/api/',
    from: /^src\/(errors|redact|now)\.ts$/,
    never: /^(?!src\/(errors|redact|now)\.ts$|src\/api\/)/,
  },
  {
    what: 'src/server/ uses no part of the CLI (commands, context, HTTP client, bulk, --local, the bridge)',
    from: /^src\/server\//,
    never: new RegExp(`${CLI}|^src/(http|bulk|local|mcp-bridge)/`),
  },
  {
    what: 'src/http/, src/render/, src/output/ and src/io/ know no command, server or mode',
    from: /^src\/(http|render|output|io)\//,
    never: new RegExp(`${CLI}|^src/(server|bulk|local|mcp-bridge)/`),
  },
  { what: 'src/bulk/, src/local/ and src/mcp-bridge/ use no command', from: /^src\/(bulk|local|mcp-bridge)\//, never: /^commands\// },
  // A command group's files import each other and src/, never another group's.
  { what: 'a command uses no other command group', from: /^commands\//, never: /^commands\// },
];

/** The imports of `file` that `rule` forbids, as `file -> import`. */
function violations(rule: Rule, file: string, imports: string[]): string[] {
  if (!rule.from.test(file)) return [];
  const group = /^commands\/[\w-]+\//.exec(file)?.[0];
  return imports.filter((t) => rule.never.test(t) && !(group && t.startsWith(group))).map((t) => `${file} -> ${t}`);
}

describe('layers of src/ and commands/', () => {
  const files = sourceFiles('src', 'commands').filter((f) => !f.startsWith('src/types/'));
  const graph = new Map(files.map((f) => [f, localImportsOf(f)]));

  it.each(RULES.map((r) => [r.what, r] as const))('%s', (_, rule) => {
    expect(files.some((f) => rule.from.test(f))).toBe(true);
    expect(files.flatMap((f) => violations(rule, f, graph.get(f)!))).toEqual([]);
  });

  it('finds an import across layers (the check can fail)', () => {
    const [api, , server, , , commands] = RULES;
    expect(violations(api!, 'src/api/x.ts', ['src/api/schemas/ads.ts', 'src/server/core.ts'])).toEqual(['src/api/x.ts -> src/server/core.ts']);
    expect(violations(server!, 'src/server/x.ts', ['src/api/routes.ts', 'src/context.ts', 'src/http/client.ts'])).toHaveLength(2);
    expect(violations(commands!, 'commands/ads/create.ts', ['commands/ads/index.ts', 'commands/posts/schedule.ts'])).toEqual(['commands/ads/create.ts -> commands/posts/schedule.ts']);
  });
});
