import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync, copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/run-cli.js';
import { spawnServe, type ServeProcess } from '../helpers/serve.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { FIXTURE_STORE } from '../helpers/paths.js';
import { KEYS } from './helpers.js';

/**
 * `cr serve --config FILE` (docs/shared-sandbox.md "One file for every server"): every option
 * from one JSON object keyed like the flags; the command line wins; an unknown key or a bad
 * value is exit 2 naming the key; nothing of the file (a store password) is printed. And
 * `--pool`'s bounds.
 */
describe('cr serve --config', () => {
  const servers: ServeProcess[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    cleanupTempDirs();
  });
  const SECRET = 's3cr3t-pw';
  const configFile = (content: unknown) => {
    const file = join(tempDir('cr-serve-config-'), 'serve.json');
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content), { mode: 0o600 });
    return file;
  };
  const storeCopy = () => {
    const path = join(tempDir('cr-serve-config-store-'), 'store.json');
    copyFileSync(FIXTURE_STORE, path);
    return path;
  };
  const limitOf = async (s: ServeProcess) => {
    const res = await fetch(`${s.baseUrl}/intelligence/learnings`, { headers: { authorization: `Bearer ${KEYS.editorW1}` } });
    await res.arrayBuffer();
    return res.headers.get('x-ratelimit-limit');
  };

  it('takes the options from the file, a flag on the command line winning over its key', async () => {
    const file = configFile({ store: storeCopy(), 'rate-limit': 7, port: 0, 'allowed-host': ['a.test', 'b.test'], 'drain-timeout': 0.5, 'max-connections': '64' });
    const fromFile = await spawnServe(['--config', file]);
    servers.push(fromFile);
    expect(await limitOf(fromFile)).toBe('7');
    const host = await fetch(`${fromFile.baseUrl}/openapi.json`, { headers: { host: `b.test:${fromFile.port}` } });
    expect(host.status).toBe(200);
    // One server per store file: the second is given another store on the command line too.
    const overridden = await spawnServe(['--config', file, '--rate-limit', '9', '--store', storeCopy()]);
    servers.push(overridden);
    expect(await limitOf(overridden)).toBe('9');
  });

  it.each([
    [{ bogus: 1 }, '"bogus" is not an option of cr serve'],
    [{ config: 'other.json' }, '"config" is not an option of cr serve'],
    [{ port: 'eighty' }, '"port": --port must be an integer'],
    [{ 'rate-limit': [5, 6] }, '"rate-limit": takes one value, not a list'],
    [{ 'no-migrate': 'yes' }, '"no-migrate": must be true or false'],
    [{ host: { name: 'x' } }, '"host": must be a string or a number'],
    [{ pool: 0 }, '"pool": --pool must be at least 1'],
    [['store'], 'must hold one JSON object'],
  ])('refuses %j with exit 2 naming the key', async (content, said) => {
    const r = await runCli(['serve', '--config', configFile(content)]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(said);
  });

  it('prints nothing of the file: a store password stays out of every refusal, the JSON one included', async () => {
    const store = `postgres://cr:${SECRET}@127.0.0.1:9/none`;
    for (const content of [`{"store": "${store}", }`, { store, 'rate-limit': 'many' }, { store, 'no-migrate': true, pool: 2, 'wait-for-store': 0 }]) {
      const r = await runCli(['serve', '--config', configFile(content)], { env: { CR_STORE: join(tempDir(), 'ignored.json') } });
      expect(r.exitCode).not.toBe(0);
      expect(r.stderr + r.stdout).not.toContain(SECRET);
    }
    // The file's store wins over CR_STORE: the refusal names the file's database, without its
    // password; its "wait-for-store" 0 ends the start at the first refusal, as the flag does.
    const file = configFile({ store, port: 0, 'wait-for-store': 0 });
    const unreachable = await runCli(['serve', '--config', file], { env: { CR_STORE: join(tempDir(), 'ignored.json') } });
    expect(unreachable.exitCode).toBe(1);
    expect(unreachable.stderr).toContain('postgres://cr:***@127.0.0.1:9/none');
    expect(unreachable.stderr).not.toContain(SECRET);
    expect(unreachable.stderr).not.toContain('others can read it');
    // The same file readable by others: said once, before anything else.
    chmodSync(file, 0o644);
    const shared = await runCli(['serve', '--config', file]);
    expect(shared.stderr).toContain('holds a database password and others can read it (mode 0644): chmod 600 it');
    expect(shared.stderr).not.toContain(SECRET);
  });

  it('refuses a file it cannot read, and database options over a store file', async () => {
    const missing = await runCli(['serve', '--config', join(tempDir(), 'none.json')]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('cannot read --config');
    const onFile = await runCli(['serve', '--config', configFile({ store: storeCopy(), 'no-migrate': true })]);
    expect(onFile.exitCode).toBe(2);
    expect(onFile.stderr).toContain('--no-migrate applies to a postgres:// store only');
  });

  it.each([
    ['0', 'at least 1'],
    ['1001', 'at most 1000'],
    ['many', 'must be an integer'],
  ])('refuses --pool %s with exit 2', async (n, said) => {
    const r = await runCli(['serve', '--pool', n, '--store', 'postgres://cr@127.0.0.1:9/none']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(said);
  });
});
