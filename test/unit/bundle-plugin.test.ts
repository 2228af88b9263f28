import { appendFileSync, cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Plugin, build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';

afterAll(() => cleanupTempDirs());

/**
 * scripts/bundle-plugin.mjs edits undici at build time; an undici that changed under an edit
 * must fail the build, saying what to re-check (CONTRIBUTING.md, "undici's edits, and taking
 * an undici release"). Bundles a copy of the installed undici, once as it is and once changed.
 */
const PLUGIN = join(ROOT, 'scripts', 'bundle-plugin.mjs');

/** A folder with a copy of undici and an entry that requires `file` of it. */
function undiciCopy(file: string): { dir: string; undici: string } {
  const dir = tempDir('cr-undici-');
  const undici = join(dir, 'node_modules', 'undici');
  cpSync(join(ROOT, 'node_modules', 'undici'), undici, { recursive: true });
  writeFileSync(join(dir, 'entry.js'), `require('./node_modules/undici/${file}');\n`);
  return { dir, undici };
}

async function bundle(dir: string): Promise<string> {
  const { startupPlugin } = (await import(PLUGIN)) as { startupPlugin: Plugin };
  const out = await build({ entryPoints: [join(dir, 'entry.js')], bundle: true, platform: 'node', format: 'cjs', write: false, logLevel: 'silent', plugins: [startupPlugin] });
  return out.outputFiles[0]!.text;
}

describe("the build's undici edits", () => {
  it('the installed undici bundles with the edits made (positive control)', async () => {
    const { dir } = undiciCopy('lib/dispatcher/client.js');
    const text = await bundle(dir);
    expect(text).toContain('max[-_]http[-_]header[-_]size');
    expect(text).toContain('is left out of the cr bundle');
  });

  it('a changed lib/core/util.js fails the build, naming the file and what to re-check', async () => {
    const { dir, undici } = undiciCopy('lib/core/util.js');
    appendFileSync(join(undici, 'lib', 'core', 'util.js'), '\n// a release changed this file\n');
    const version = (JSON.parse(readFileSync(join(undici, 'package.json'), 'utf8')) as { version: string }).version;
    await expect(bundle(dir)).rejects.toThrow(
      new RegExp(`undici ${version.replace(/\./g, '\\.')}'s lib/core/util\\.js is not the file its edits were checked against .*re-check that node:http is still used in util\\.js only`),
    );
  });

  it('an HTTP/2 require outside the fallback fails the build', async () => {
    const { dir, undici } = undiciCopy('lib/dispatcher/client-h2.js');
    const file = join(undici, 'lib', 'dispatcher', 'client-h2.js');
    writeFileSync(file, readFileSync(file, 'utf8').replace('  http2 = { constants: {} }\n', "  http2 = require('node:http2')\n"));
    await expect(bundle(dir)).rejects.toThrow(/client-h2\.js requires node:http2 other than in the try\/catch .*re-check that client-h2\.js still falls back/);
  });

  it('a file calling a node:assert method fails the build (the stand-in answers assert(value) only)', async () => {
    const { dir, undici } = undiciCopy('lib/core/tree.js');
    const file = join(undici, 'lib', 'core', 'tree.js');
    writeFileSync(file, `const assert = require('node:assert')\nassert.strictEqual(1, 1)\n${readFileSync(file, 'utf8')}`);
    await expect(bundle(dir)).rejects.toThrow(/lib\/core\/tree\.js calls a method of node:assert.*re-check that undici still calls node:assert only as assert\(value, message\)/);
  });
});
