import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { childEnv, spawnProcess } from '../helpers/process.js';
import { ROOT, importsOf } from './imports.js';

/**
 * Tests do not depend on the caller's environment (test/README.md "Child processes"): every
 * process a test starts goes through test/helpers/process.ts (or the MCP client's transport
 * in test/helpers/mcp-stdio.ts), which gives it a complete environment of its own. A test
 * file that starts a process itself, or hands `process.env` on, fails here.
 */
const SPAWNERS = new Set(['test/helpers/process.ts', 'test/helpers/mcp-stdio.ts']);
const PROCESS_MODULES = ['execa', 'child_process', 'node:child_process', 'cross-spawn'];
/** Variables a test may read one by one (knobs of the test run itself), and where. */
const READS: Record<string, RegExp> = {
  'test/helpers/process.ts': /^PATH$/,
  'test/helpers/cli.ts': /^CR_TEST_BIN$/,
  'test/helpers/paths.ts': /^CR_TEST_NODE$/,
  'test/helpers/soak.ts': /^CR_SOAK$/,
  // The PostgreSQL server .ci/run started for the run (test/pg-setup.ts starts one otherwise).
  'test/pg-setup.ts': /^CR_TEST_PG_URL$/,
  // Where the caller's npm keeps its downloads: the install test reuses them (offline-friendly).
  'test/e2e/package-install.test.ts': /^npm_config_cache$/,
  // Runs inside the child (node --require): reads the variable the test gave that child.
  'test/e2e/fixtures/max-rss.cjs': /^CR_TEST_MAX_RSS_FILE$/,
  // Whether the run is CI's: there HAProxy is installed (.ci/run), so its test must not skip.
  'test/e2e/haproxy.test.ts': /^CI$/,
  '*': /^[A-Z]+_(SEED|RUNS)$/,
};

function testSources(dir = 'test'): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...testSources(p));
    else if (/\.(ts|mts|cts|js|mjs|cjs)$/.test(e.name)) out.push(p);
  }
  return out;
}

const code = (file: string) =>
  readFileSync(join(ROOT, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');

describe('test sources and the caller environment', () => {
  // This file aside: it sets the caller's variables on purpose, below.
  const files = testSources()
    .map((f) => relative(ROOT, join(ROOT, f)))
    .filter((f) => f !== 'test/architecture/test-env.test.ts');

  it('only the process helpers import a module that starts processes', () => {
    expect(files.length).toBeGreaterThan(100);
    const offenders = files.filter((f) => !SPAWNERS.has(f) && importsOf(f).some((s) => PROCESS_MODULES.includes(s)));
    expect(offenders, 'start processes through test/helpers/process.ts (spawnProcess, spawnBin, runBin, spawnServe)').toEqual([]);
  });

  it('only the MCP helper builds a stdio transport (the SDK adds the caller’s HOME, USER… otherwise)', () => {
    const offenders = files.filter((f) => !SPAWNERS.has(f) && /new\s+StdioClientTransport\s*\(/.test(code(f)));
    expect(offenders, 'use crStdioTransport (test/helpers/mcp-stdio.ts)').toEqual([]);
  });

  it('process.env is never handed on, only single knobs are read', () => {
    const found: string[] = [];
    for (const f of files) {
      for (const m of code(f).matchAll(/\bprocess\.env\b(\s*\.\s*(\w+)|\s*\[)?/g)) {
        const name = m[2];
        const allowed = name !== undefined && [READS[f], READS['*']].some((re) => re?.test(name));
        if (!allowed) found.push(`${f}: ${m[0]}`);
      }
      if (/extendEnv\s*:\s*true/.test(code(f))) found.push(`${f}: extendEnv: true`);
    }
    expect(found, 'give the child its variables (childEnv, crEnv), never the caller’s').toEqual([]);
  });
});

describe('the process helper', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  });

  it('gives a child only PATH, LANG and what the test names, whatever the caller has set', async () => {
    Object.assign(process.env, { XDG_DATA_HOME: '/nowhere', CR_STORE: '/nowhere/store.json', CR_API_KEY: 'cr_x', HOME: '/nowhere' });
    const r = await spawnProcess(process.execPath, ['-e', 'process.stdout.write(JSON.stringify(process.env))'], { env: { HOME: '/tmp/h', CR_NOW: undefined } });
    const env = JSON.parse(r.stdout) as Record<string, string>;
    expect(Object.keys(env).sort()).toEqual(['HOME', 'LANG', 'PATH']);
    expect(env).toEqual({ ...childEnv(), HOME: '/tmp/h' });
  });
});
