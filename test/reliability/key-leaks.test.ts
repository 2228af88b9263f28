import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, cleanupTempDirs } from '../helpers/tmp.js';
import { DEMO } from '../../src/server/ops/seed.js';
import { createApiKey } from '../../src/server/domain/keys.js';
import { openStore } from '../../src/server/store/open-store.js';
import { deadPort } from '../helpers/http-server.js';
import { runCli } from '../helpers/run-cli.js';
import { NOW, ensureBuilt, runBin, spawnServe, stopServe } from './support.js';

/**
 * Item 9: keys never leak. 100 keys are created (2 through `cr local keys create`, the rest
 * through the store's own key code), then every command of the CLI runs with --verbose against a
 * spawned `cr serve` that logs every request: in-process (everything a command writes goes
 * through its context's streams), and as a process (`bin/cr.js`, where Node itself could add
 * to stderr) for the creations, a login, the refusals and failures and `--local`. The store folder, the server's log and every
 * command's stdout and stderr are searched for `cr_[0-9a-f]{40}`: the only hits allowed are
 * the creation outputs, which must show their key (once). config.json, which legitimately
 * stores the key, must be 0600 in a 0700 folder.
 */
const KEY_RE = /cr_[0-9a-f]{40}/g;

afterAll(() => cleanupTempDirs());

interface Output {
  what: string;
  text: string;
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p));
    else out.push(p);
  }
  return out;
}

describe('keys never leak', () => {
  beforeAll(async () => {
    await ensureBuilt();
  }, 120_000);

  it('100 keys, every command with --verbose: no key in outputs, logs or store files except where it is created', async () => {
    const dir = tempDir('cr-leak-');
    const cfg = join(dir, 'cfg');
    const storePath = join(dir, 'store', 'store.json');
    const localStore = join(dir, 'local', 'store.json');
    const env = { HOME: dir, CR_CONFIG_DIR: cfg, CR_NOW: NOW, CR_STORE: localStore, CR_RETRY_BASE_MS: '5' };
    const outputs: Output[] = [];
    const creations: { what: string; stdout: string; stderr: string }[] = [];
    const keys: string[] = [];

    // Creation: `cr local init` (admin key) and `cr local keys create` show their key once.
    const init = await runBin(['local', 'init', '--store', storePath, '--demo', '--verbose'], { env });
    expect(init.exitCode, init.stderr).toBe(0);
    creations.push({ what: 'local init', stdout: String(init.stdout), stderr: String(init.stderr) });
    const c1 = await runBin(['local', 'keys', 'create', '--role', 'editor', '--website', DEMO.websiteId, '--name', 'ci editor', '--store', storePath, '--verbose'], { env });
    expect(c1.exitCode, c1.stderr).toBe(0);
    creations.push({ what: 'keys create', stdout: String(c1.stdout), stderr: String(c1.stderr) });
    const c2 = await runBin(['--json', 'local', 'keys', 'create', '--role', 'viewer', '--agency', DEMO.agencyId, '--store', storePath, '--verbose'], { env });
    expect(c2.exitCode, c2.stderr).toBe(0);
    creations.push({ what: 'keys create --json', stdout: String(c2.stdout), stderr: String(c2.stderr) });
    for (const c of creations) {
      const found = c.stdout.match(KEY_RE) ?? [];
      expect(found, `${c.what} shows its key exactly once`).toHaveLength(1);
      expect(c.stderr.match(KEY_RE), `${c.what} stderr`).toBeNull();
      keys.push(found[0]!);
    }
    const editorKey = keys[1]!;
    // The rest in one opening of the store (each opening reads and rewrites the whole file).
    const bulk = await openStore(storePath);
    try {
      for (let i = keys.length - 1; keys.length < 101; i++) {
        const made = await createApiKey(bulk, { role: (['viewer', 'editor', 'admin'] as const)[i % 3]!, websiteId: DEMO.websiteId, name: `bulk ${i}` });
        keys.push(made.key);
      }
    } finally {
      await bulk.close();
    }
    expect(new Set(keys).size).toBe(101); // the init admin key + 100 created

    const s = await spawnServe(['--store', storePath], { dir, env });
    const base = s.baseUrl;
    const run = async (what: string, args: string[], o: { input?: string; env?: Record<string, string>; exit?: number; process?: true } = {}) => {
      const r = o.process ? await runBin(args, { env: { ...env, ...o.env }, input: o.input }) : await runCli(args, { env: { ...env, ...o.env }, input: o.input, configDir: cfg });
      outputs.push({ what: `${what}: stdout`, text: String(r.stdout) }, { what: `${what}: stderr`, text: String(r.stderr) });
      if (o.exit !== undefined) expect(r.exitCode, `${what}: ${r.stderr}`).toBe(o.exit);
      return r;
    };
    const P = ['--profile', 'leak', '--verbose'];
    try {
      await run('auth login', ['auth', 'login', ...P, '--base-url', base, '--with-key'], { input: editorKey + '\n', exit: 0, process: true });
      await run('auth status', ['auth', 'status', ...P], { exit: 0 });
      await run('auth status --json', ['auth', 'status', ...P, '--json'], { exit: 0 });
      await run('profiles list', ['profiles', 'list', '--verbose'], { exit: 0 });
      await run('profiles list --json', ['profiles', 'list', '--json', '--verbose'], { exit: 0 });
      await run('profiles use', ['profiles', 'use', 'leak', '--verbose'], { exit: 0 });
      await run('finance summary', ['finance', 'summary', ...P], { exit: 0, process: true });
      await run('finance summary --json', ['finance', 'summary', ...P, '--json'], { exit: 0 });
      await run('ads create', ['ads', 'create', ...P, '--format', 'single_image', '--name', 'Leak test', '--url', 'https://acme.example/'], { exit: 0 });
      await run('ads create --dry-run', ['ads', 'create', ...P, '--format', 'single_image', '--name', 'Leak test', '--url', 'https://acme.example/', '--dry-run'], { exit: 0 });
      await run('listeners create', ['listeners', 'create', ...P, '--name', 'Leak feed', '--source', 'rss', '--query', 'feed_url=https://feed.example/rss', '--json'], { exit: 0 });
      await run('listeners create --dry-run', ['listeners', 'create', ...P, '--name', 'Leak feed', '--source', 'rss', '--query', 'feed_url=https://feed.example/rss', '--dry-run'], { exit: 0 });
      await run('posts schedule', ['posts', 'schedule', DEMO.draftPostId, '--at', '+2h', ...P], { exit: 0 });
      await run('posts schedule --dry-run', ['posts', 'schedule', DEMO.draftPostId, '--at', '+2h', ...P, '--dry-run'], { exit: 0 });
      await run('posts schedule (published: 409)', ['posts', 'schedule', DEMO.publishedPostId, '--at', '+2h', ...P], { exit: 6 });
      await run('learnings list', ['learnings', 'list', ...P, '--limit', '5'], { exit: 0 });
      await run('nurture list --all', ['nurture', 'list', ...P, '--all', '--json'], { exit: 0 });
      await run('visibility grid', ['visibility', 'grid', ...P], { exit: 0 });
      await run('brand subjects', ['brand', 'subjects', ...P], { exit: 0 });
      await run('crm agents', ['crm', 'agents', ...P], { exit: 0 });
      await run('api GET', ['api', '/finance/summary', ...P], { exit: 0 });
      await run('api --include', ['api', '/finance/summary', ...P, '--include'], { exit: 0 });
      await run('api POST -F', ['api', '/content/listeners', ...P, '-F', 'name=x', '-F', 'source_type=rss', '-F', 'query_config.feed_url=https://f.example/'], {});
      await run('api unknown path (404)', ['api', '/nope', ...P], { exit: 5 });
      await run('api unknown path --json (404)', ['api', '/nope', ...P, '--json'], { exit: 5 });
      await run('mcp config (masked)', ['mcp', 'config', ...P], { exit: 0 });
      await run('completion bash', ['completion', 'bash'], { exit: 0 });
      // Refusals and failures, whose messages are where keys tend to slip out.
      await run('revoked/unknown key via env (401)', ['finance', 'summary', '--verbose', '--base-url', base], { env: { CR_API_KEY: 'cr_' + '1'.repeat(40) }, exit: 3, process: true });
      await run('key from env, --json error', ['finance', 'summary', '--verbose', '--json', '--base-url', base.replace(/\/api\/v1$/, '/x/api/v1')], {
        env: { CR_API_KEY: keys[5]! },
        exit: 5,
        process: true,
      });
      await run('viewer key on a write (403)', ['listeners', 'create', '--verbose', '--base-url', base, '--name', 'n', '--source', 'rss', '--query', 'feed_url=https://f.example/'], {
        env: { CR_API_KEY: keys[2]! },
        exit: 4,
      });
      const dead = await deadPort();
      await run('server unreachable', ['finance', 'summary', ...P, '--base-url', `http://127.0.0.1:${dead}/api/v1`], { exit: 8, process: true });
      await run('key in a URL the user typed', ['api', `/finance/summary?k=${keys[7]}`, ...P], { process: true });
      await run('--local (embedded server, key created and saved, not printed)', ['--local', 'finance', 'summary', '--verbose'], { exit: 0, process: true });
      await run('--local --json', ['--local', 'crm', 'agents', '--verbose', '--json'], { exit: 0 });
    } finally {
      expect((await stopServe(s)).code).toBe(0);
    }
    // Store commands need the store unlocked.
    const list = await run('local keys list', ['local', 'keys', 'list', '--store', storePath, '--verbose'], { exit: 0 });
    const listed = JSON.parse(String((await run('local keys list --json', ['local', 'keys', 'list', '--store', storePath, '--json', '--verbose'], { exit: 0 })).stdout));
    expect(listed.length).toBeGreaterThanOrEqual(101);
    expect(String(list.stdout)).toContain(DEMO.websiteId);
    await run('local keys revoke', ['local', 'keys', 'revoke', listed[3].id, '--store', storePath, '--verbose', '--json'], { exit: 0 });
    await run('auth logout', ['auth', 'logout', '--profile', 'leak', '--verbose'], { exit: 0 });

    outputs.push({ what: 'server log (stderr)', text: s.stderr() }, { what: 'server stdout', text: s.stdout() });
    // --local's own key file (src/local/credential.ts) holds a key by design, like config.json: owner-only, checked below.
    // cr serve keeps one beside its store too, for administration while it runs (src/local/admin-key.ts).
    const localKeyFiles = [...filesUnder(join(dir, 'local')), ...filesUnder(join(dir, 'store'))].filter((f) => f.endsWith('.local-key'));
    expect(localKeyFiles).toHaveLength(2);
    for (const f of localKeyFiles) expect(statSync(f).mode & 0o777).toBe(0o600);
    const notKeyFile = (f: string) => !f.endsWith('.local-key');
    const files = [...filesUnder(join(dir, 'store')).filter(notKeyFile), ...filesUnder(join(dir, 'local')).filter(notKeyFile), ...filesUnder(cfg).filter((f) => !f.endsWith('config.json'))];
    for (const f of files) outputs.push({ what: `file ${f}`, text: readFileSync(f).toString('latin1') });

    const leaks = outputs.flatMap((o) => (o.text.match(KEY_RE) ?? []).map((k) => `${o.what}: ${k.slice(0, 10)}…`));
    console.log(
      `key leaks: ${keys.length} keys, ${outputs.length} outputs scanned (${(outputs.reduce((n, o) => n + o.text.length, 0) / 1024).toFixed(0)} KiB, ${files.length} files, ${
        s
          .stderr()
          .split('\n')
          .filter((l) => / \/api\/v1\//.test(l)).length
      } server log lines), ${leaks.length} leaks`,
    );
    expect(leaks).toEqual([]);
    // The masked forms do show up (so the scan looked at the right text).
    expect(outputs.some((o) => o.text.includes(`cr_${editorKey.slice(3, 7)}…${editorKey.slice(-4)}`))).toBe(true);

    // The config file legitimately holds keys: owner-only.
    expect(statSync(join(cfg, 'config.json')).mode & 0o777).toBe(0o600);
    expect(statSync(cfg).mode & 0o777).toBe(0o700);
  }, 180_000);
});
