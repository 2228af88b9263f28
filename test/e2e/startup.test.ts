import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBin, PKG_VERSION } from '../helpers/cli.js';
import { cleanupTempDirs, makeKey, tempDir } from '../helpers/tmp.js';
import { deadPort, ok, startTestServer } from '../helpers/http-server.js';
import { executedSources } from '../helpers/executed-sources.js';
import { KEYS, startFixtureServer } from '../server/helpers.js';

afterAll(() => cleanupTempDirs());

const _GROUPS = ['finance', 'ads', 'listeners', 'posts', 'learnings', 'nurture', 'visibility', 'brand', 'crm', 'api', 'auth', 'profiles', 'serve', 'local', 'mcp', 'completion'];
// src/api/vocabulary.ts is the API's fixed words without zod (key pattern, roles): made to be
// loadable at start-up (key masking in error lines needs it), so it is not counted as heavy.
const HEAVY = [
  /node_modules\/jq-web\//,
  /node_modules\/csv-stringify\//,
  /node_modules\/undici\//,
  /node_modules\/zod\//,
  /node_modules\/hono\//,
  /node_modules\/@hono\//,
  /node_modules\/@modelcontextprotocol\//,
  /\/src\/server\//,
  /\/src\/api\/(?!vocabulary\.ts$)/,
];

/**
 * Runs the built CLI with V8 coverage on and returns the sources whose code executed (the
 * CLI is one bundle, so which files were opened says nothing; which functions ran does).
 */
async function loadsOf(args: string[], env: Record<string, string> = {}) {
  const dir = tempDir('cr-coverage-');
  const r = await runBin(args, { env: { NODE_V8_COVERAGE: dir, ...env } });
  return { r, sources: [...executedSources(dir)] };
}

/**
 * Runs the built CLI with a preload that writes, at exit, the Node built-ins the run loaded
 * (process.moduleLoadList, less those loaded before the CLI started).
 */
async function builtinsOf(args: string[], env: Record<string, string> = {}) {
  const dir = tempDir('cr-builtins-');
  const preload = join(dir, 'preload.cjs');
  const out = join(dir, 'loaded.txt');
  writeFileSync(
    preload,
    `const before = new Set(process.moduleLoadList);
process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, process.moduleLoadList.filter((m) => !before.has(m)).join('\\n')));`,
  );
  const r = await runBin(args, { env, nodeArgs: ['--require', preload] });
  const loaded = readFileSync(out, 'utf8')
    .split('\n')
    .filter((m) => m.startsWith('NativeModule '))
    .map((m) => m.slice('NativeModule '.length));
  return { r, loaded };
}

describe('cr --version from the launcher', () => {
  it('--version prints the package.json version', async () => {
    for (const flag of ['--version', '-V']) {
      const r = await runBin([flag]);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toBe(`${PKG_VERSION}\n`);
    }
  });
});

describe('the code cache a run starts from', () => {
  it('a remote command takes the remote cache; --local, `cr serve` and `cr local` the local one; V8 accepts each on a second run', async () => {
    // On the builder's Node: dist/bundle/cli.js[.local].cache; on another line, a per-user
    // cache that the first run makes (src/startup/code-cache-file.ts). HOME is shared by the runs.
    const home = tempDir('cr-home-');
    const env = { CR_STARTUP_DEBUG: '1', HOME: home, CR_STORE: `${home}/store.json` };
    const cacheOf = (stderr: string) => {
      const m = /code cache (\w+) \((?:.*\/dist\/bundle\/cli\.js|.*\/\.cache\/cr\/v8\/cli-[^/]+?)((?:\.local)?)\.cache\)/.exec(stderr);
      return m ? [m[1], m[2] ? 'local' : 'remote'] : stderr;
    };
    const srv = await startFixtureServer();
    try {
      const remoteEnv = { ...env, CR_API_KEY: KEYS.viewerW1, CR_BASE_URL: `${srv.url}/api/v1` };
      for (const run of ['first', 'second']) {
        const remote = await runBin(['finance', 'summary', '--json'], { env: remoteEnv });
        expect(remote.exitCode, `${run}: ${remote.stderr}`).toBe(0);
        if (run === 'second') expect(cacheOf(remote.stderr)).toEqual(['accepted', 'remote']);
        const local = await runBin(['finance', 'summary', '--local', '--json'], { env });
        expect(local.exitCode, local.stderr).toBe(0);
        if (run === 'second') expect(cacheOf(local.stderr)).toEqual(['accepted', 'local']);
      }
    } finally {
      await srv.stop();
    }
    for (const args of [
      // With an option, help comes from the bundle (a plain help request is a page: src/startup/help-pages.ts).
      ['serve', '--json', '--help'],
      ['local', '--json', '--help'],
    ])
      expect(cacheOf((await runBin(args, { env })).stderr)).toEqual(['accepted', 'local']);
    // `--profile local` names a profile, not the local command.
    expect(cacheOf((await runBin(['--profile', 'local', 'profiles', 'list'], { env })).stderr)).toEqual(['accepted', 'remote']);
  });
});

describe('startup stays light', () => {
  it('the load recorder works: `cr api` does load the HTTP core (positive control), and never undici', async () => {
    const port = await deadPort();
    const { r, sources } = await loadsOf(['api', '/x'], { CR_API_KEY: makeKey(), CR_BASE_URL: `http://127.0.0.1:${port}/api/v1` });
    expect(r.exitCode).toBe(8);
    expect(sources.some((u) => /\/src\/cli\.ts$/.test(u))).toBe(true);
    expect(sources.some((u) => /\/src\/http\/client\.ts$/.test(u))).toBe(true);
    // cr's own request() (src/http/undici-core.ts) over node:http: only undici's types are used.
    expect(sources.filter((u) => /node_modules\/undici\//.test(u))).toEqual([]);
  });

  // `--no-color --help` is the bundle's help (an option beside it), as at a terminal.
  for (const args of [['--help'], ['--no-color', '--help'], ['--version'], ['-V']]) {
    it(`\`cr ${args.join(' ')}\` loads no undici, zod, hono, MCP SDK, schemas or server code`, async () => {
      const { r, sources } = await loadsOf(args);
      expect(r.exitCode).toBe(0);
      // A plain help request is answered from a page (src/startup/help-pages.ts): no bundle code at all.
      if (args[0] === '--help') expect(sources).toEqual([]);
      if (args[0] === '--no-color') expect(sources.some((u) => /node_modules\/commander\//.test(u))).toBe(true);
      const heavy = sources.filter((u) => HEAVY.some((re) => re.test(u)));
      expect(heavy).toEqual([]);
    });
  }

  it('with a proxy variable set, a loopback target loads no proxy pool (src/http/proxy-agents.ts, *-proxy-agent); a proxied target does', async () => {
    const PROXY_POOL = /node_modules\/(https?-proxy-agent|agent-base)\/|\/src\/http\/proxy-agents\.ts$/;
    const port = await deadPort();
    const proxyEnv = { HTTPS_PROXY: `http://127.0.0.1:${port}`, HTTP_PROXY: `http://127.0.0.1:${port}` };
    const srv = await startFixtureServer();
    try {
      const direct = await loadsOf(['finance', 'summary', '--json'], { ...proxyEnv, CR_API_KEY: KEYS.viewerW1, CR_BASE_URL: `${srv.url}/api/v1` });
      expect(direct.r.exitCode, direct.r.stderr).toBe(0);
      expect(direct.sources.filter((u) => PROXY_POOL.test(u))).toEqual([]);
    } finally {
      await srv.stop();
    }
    // Positive control: a host the proxy carries loads them (and fails on the dead proxy, exit 8).
    const proxied = await loadsOf(['api', '/x'], { ...proxyEnv, CR_API_KEY: makeKey(), CR_BASE_URL: 'http://api.example.test/api/v1' });
    expect(proxied.r.exitCode).toBe(8);
    expect(proxied.r.stderr).toContain('(HTTP_PROXY) cannot be reached');
    expect(proxied.sources.some((u) => PROXY_POOL.test(u))).toBe(true);
  });

  it('`cr finance summary` checks the response without zod: no zod, schemas, hono or server code runs', async () => {
    const srv = await startFixtureServer();
    try {
      const { r, sources } = await loadsOf(['finance', 'summary', '--json'], { CR_API_KEY: KEYS.viewerW1, CR_BASE_URL: `${srv.url}/api/v1` });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toHaveProperty('summaries');
      expect(sources.some((u) => /\/src\/api\/check-json\.ts$/.test(u))).toBe(true);
      // The request goes through node:http (src/http/node-dispatcher.ts): no undici, and no proxy code without a proxy variable.
      expect(sources.some((u) => /\/src\/http\/node-dispatcher\.ts$/.test(u))).toBe(true);
      expect(sources.filter((u) => /node_modules\/(undici|https?-proxy-agent|agent-base)\/|\/src\/http\/proxy-(env|agents)\.ts$/.test(u))).toEqual([]);
      expect(sources.filter((u) => /node_modules\/(zod|hono|@hono|@modelcontextprotocol|jq-web|csv-stringify)\/|\/src\/server\/|\/src\/api\/schemas\//.test(u))).toEqual([]);
      // No colour to print: chalk (and its terminal detection) stays unloaded (src/render/styles.ts).
      expect(sources.filter((u) => /node_modules\/(chalk|supports-color)\/|\/src\/render\/styles\.ts$/.test(u))).toEqual([]);
    } finally {
      await srv.stop();
    }
  });

  it('`cr finance summary --json` to a pipe loads node:http for its request, no node:crypto, node:tty or node:assert, nor the fs streams that reading stdin needs', async () => {
    const srv = await startFixtureServer();
    try {
      const { r, loaded } = await builtinsOf(['finance', 'summary', '--json'], { CR_API_KEY: KEYS.viewerW1, CR_BASE_URL: `${srv.url}/api/v1` });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toHaveProperty('summaries');
      // Positive controls: the request's socket, and Node's HTTP client that sends it (src/http/node-dispatcher.ts).
      expect(loaded).toContain('net');
      expect(loaded).toContain('_http_client');
      // node:crypto only when a file is written (src/local/url-file.ts); stdin (/dev/null here)
      // never opened (src/io/streams.ts). chalk's terminal detection (node:tty) neither: nothing
      // is coloured (src/render/styles.ts); nor node:assert.
      expect(loaded.filter((m) => /^(crypto|internal\/crypto\/\w+|internal\/fs\/streams|internal\/fs\/promises|internal\/readline\/\w+|tty|assert)$/.test(m))).toEqual([]);
    } finally {
      await srv.stop();
    }
  });

  it("requests keep Node's response header limit (16 KiB, or --max-http-header-size)", async () => {
    const srv = await startTestServer(ok({ fine: true }));
    try {
      const env = { CR_API_KEY: makeKey(), CR_BASE_URL: srv.baseUrl };
      const withHeader = (size: number) => srv.handle({ ...ok({ fine: true }), headers: { 'x-padding': 'a'.repeat(size) } });
      withHeader(15_000);
      expect((await runBin(['api', '/x'], { env })).exitCode).toBe(0);
      withHeader(17_000);
      const over = await runBin(['api', '/x'], { env });
      expect(over.exitCode).toBe(8);
      expect(over.stderr).toMatch(/Headers Overflow/);
      // Node's own setting, on the command line or in NODE_OPTIONS, still decides.
      const flagged = await runBin(['api', '/x'], { env, nodeArgs: ['--max-http-header-size=65536'] });
      expect(flagged.exitCode, flagged.stderr).toBe(0);
      const viaOptions = await runBin(['api', '/x'], { env: { ...env, NODE_OPTIONS: '--max-http-header-size=65536' } });
      expect(viaOptions.exitCode, viaOptions.stderr).toBe(0);
      expect(JSON.parse(viaOptions.stdout)).toEqual({ fine: true });
      // Node takes its options with underscores too.
      const underscored = await runBin(['api', '/x'], { env: { ...env, NODE_OPTIONS: '--max_http_header_size=65536' } });
      expect(underscored.exitCode, underscored.stderr).toBe(0);
    } finally {
      await srv.close();
    }
  });

  it('`cr finance summary --local` answers in-process: no listener, connection pool or Fetch handler runs', async () => {
    const home = tempDir('cr-home-');
    // Twice: the first run creates the store and --local's key; the second is the everyday run.
    for (const run of ['first', 'second']) {
      const { r, sources } = await loadsOf(['finance', 'summary', '--local', '--json'], { HOME: home, CR_STORE: `${home}/store.json` });
      expect(r.exitCode, `${run}: ${r.stderr}`).toBe(0);
      expect(JSON.parse(r.stdout)).toHaveProperty('summaries');
      // Positive controls: the request went through the carrier and the server's pipeline.
      expect(sources.some((u) => /\/src\/local\/in-process-dispatcher\.ts$/.test(u))).toBe(true);
      expect(sources.some((u) => /\/src\/server\/app\/operations\.ts$/.test(u))).toBe(true);
      const network = /\/src\/server\/(transport\/fetch-handler|serve)\.ts$|node_modules\/@hono\/node-server\/|\/src\/http\/node-dispatcher\.ts$/;
      expect(sources.filter((u) => network.test(u))).toEqual([]);
    }
  });

  it('jq is loaded for --jq only, and CSV writing for --csv only', async () => {
    const srv = await startFixtureServer();
    try {
      const env = { CR_API_KEY: KEYS.viewerW1, CR_BASE_URL: `${srv.url}/api/v1` };
      const jq = await loadsOf(['finance', 'summary', '--jq', '.summaries | length'], env);
      expect(jq.r.exitCode, jq.r.stderr).toBe(0);
      expect(jq.r.stdout).toMatch(/^\d+\n$/);
      expect(jq.sources.some((u) => /node_modules\/jq-web\//.test(u))).toBe(true);
      expect(jq.sources.some((u) => /node_modules\/csv-stringify\//.test(u))).toBe(false);
      const csv = await loadsOf(['finance', 'summary', '--csv'], env);
      expect(csv.r.exitCode, csv.r.stderr).toBe(0);
      expect(csv.sources.some((u) => /node_modules\/csv-stringify\//.test(u))).toBe(true);
      expect(csv.sources.some((u) => /node_modules\/jq-web\//.test(u))).toBe(false);
    } finally {
      await srv.stop();
    }
  });

  it('`cr auth status` loads no undici, hono or server code', async () => {
    const { r, sources } = await loadsOf(['auth', 'status']);
    expect(
      sources.some((u) => /\/src\/config\/profiles\.ts$/.test(u)),
      r.stderr,
    ).toBe(true);
    expect(sources.filter((u) => /node_modules\/(undici|hono|@hono|@modelcontextprotocol)\/|\/src\/server\//.test(u))).toEqual([]);
  });
});
