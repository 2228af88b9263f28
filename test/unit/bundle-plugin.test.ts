import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type Plugin, build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths.js';

/**
 * The build edits no dependency and the sources import none of a dependency's private paths
 * (CONTRIBUTING.md, rule 5): a subpath of a package is imported only when the package's own
 * `exports` names it. scripts/bundle-plugin.mjs only defers commander's child_process.
 */
const PLUGIN = join(ROOT, 'scripts', 'bundle-plugin.mjs');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The bare specifiers a file imports (static and dynamic). */
function specifiers(text: string): string[] {
  return [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'([^'.][^']*)'/g)].map((m) => m[1]!).filter((s) => !s.startsWith('node:'));
}

function exported(spec: string): boolean {
  const parts = spec.split('/');
  const name = spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  const sub = spec.slice(name.length);
  if (!sub) return true;
  const pkg = JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { exports?: unknown };
  if (!pkg.exports || typeof pkg.exports !== 'object') return false;
  return Object.keys(pkg.exports).some((k) => k === `.${sub}` || (k.endsWith('*') && `.${sub}`.startsWith(k.slice(0, -1))));
}

describe('dependencies through their public API only', () => {
  it("no source imports a dependency's private path", () => {
    const imports = sourceFiles(join(ROOT, 'src')).flatMap((f) => specifiers(readFileSync(f, 'utf8')).map((s) => ({ file: f.slice(ROOT.length + 1), s })));
    // Positive control: the sources do import packages, and subpaths that are exported.
    expect(imports.some((i) => i.s === 'commander')).toBe(true);
    expect(exported('hono/http-exception')).toBe(true);
    expect(exported('undici/lib/api/api-request.js')).toBe(false);
    expect(imports.filter((i) => !exported(i.s))).toEqual([]);
  });

  it("the bundle plugin defers commander's child_process and edits nothing else", async () => {
    const { startupPlugin } = (await import(PLUGIN)) as { startupPlugin: Plugin };
    const text = readFileSync(PLUGIN, 'utf8');
    expect(text).not.toMatch(/undici|sha256|\.replace\(/);
    const out = await build({
      stdin: { contents: "import { Command } from 'commander'; console.log(typeof Command);", resolveDir: ROOT },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      write: false,
      logLevel: 'silent',
      plugins: [startupPlugin],
    });
    expect(out.outputFiles[0]!.text).toContain('new Proxy({}');
  });
});
