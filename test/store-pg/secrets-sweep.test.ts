import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runBin } from '../helpers/cli.js';
import { freshDatabase } from '../helpers/postgres.js';
import { spawnServe } from '../helpers/serve.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';

/**
 * No command or log prints a database password, encoded or not, whole or in part
 * (docs/shared-sandbox.md "Secrets"): every `cr local` command that takes a store, `cr serve`'s
 * output, log and url file, errors and hints, `--json` and `--verbose`. The password is made of
 * tokens none of cr's own text holds, joined by every character a URL reserves; a leak of any
 * token is a leak of part of it.
 */
const TOKENS = ['Zq1', 'Xj2', 'Vk3', 'Wp4', 'Yh5', 'Rm6', 'Tn7', 'Ls8'];
const PASSWORD = 'Zq1@Xj2#Vk3/Wp4%Yh5:Rm6?Tn7 Ls8';

/** `url` with user `postgres` and the password put in as given: encoded, or raw as a user might paste it. */
function withPassword(url: string, password: string): string {
  const u = new URL(url);
  return `postgres://postgres:${password}@${u.host}${u.pathname}`;
}
const encoded = (url: string) => withPassword(url, encodeURIComponent(PASSWORD));
const raw = (url: string) => withPassword(url, PASSWORD);

function expectNoSecret(where: string, text: string): void {
  const found = TOKENS.filter((t) => text.includes(t));
  expect(found, `${where} shows part of the password:\n${text}`).toEqual([]);
}

describe('database passwords never printed', () => {
  let dir: string;
  let fixture: string;
  let url: string;
  afterAll(() => cleanupTempDirs());
  beforeAll(async () => {
    dir = tempDir('cr-secrets-');
    fixture = join(dir, 'fixture.json');
    writeFileSync(fixture, '{"websites":[]}\n');
    url = encoded((await freshDatabase()).url);
  });

  it('every cr local command over an encoded password: output, errors, --json and --verbose', async () => {
    const env = { CR_NOW: '2025-06-15T12:00:00Z' };
    const init = await runBin(['local', 'init', '--store', url, '--json'], { env });
    expectNoSecret('init', init.stdout + init.stderr);
    expect(init.exitCode, init.stderr).toBe(0);
    const made = JSON.parse(init.stdout) as { keyId: string; websiteId: string; storePath: string };
    expect(made.storePath).toMatch(/^postgres:\/\/postgres:\*\*\*@/);
    // Each run with the exit it must end with: the real work as well as the refusals and failures.
    const runs: [string, string[], number][] = [
      ['init again', ['--verbose', 'local', 'init', '--store', url], 2],
      ['seed', ['local', 'seed', '--store', url, fixture], 0],
      ['seed --json --verbose', ['--verbose', 'local', 'seed', '--store', url, fixture, '--json'], 0],
      ['keys create', ['local', 'keys', 'create', '--store', url, '--website', made.websiteId, '--role', 'admin', '--json'], 0],
      ['keys list', ['--verbose', 'local', 'keys', 'list', '--store', url, '--json'], 0],
      ['keys revoke', ['local', 'keys', 'revoke', '--store', url, made.keyId], 0],
      ['keys revoke unknown', ['local', 'keys', 'revoke', '--store', url, '00000000-0000-4000-8000-000000000000', '--json'], 2],
      ['websites', ['local', 'websites', '--store', url], 0],
      ['posts', ['local', 'posts', '--store', url, '--json'], 0],
      ['export', ['local', 'export', '--store', url], 0],
      ['copy out', ['local', 'copy', '--from', url, '--to', join(dir, 'copy.json')], 0],
      ['copy in, not empty', ['--verbose', 'local', 'copy', '--from', join(dir, 'copy.json'), '--to', url, '--json'], 1],
      ['restore', ['local', 'restore', '--store', url], 2],
      ['no such database', ['local', 'keys', 'list', '--store', url.replace(/\/[^/]*$/, '/cr_no_such_db'), '--json'], 1],
      ['nothing listening', ['--verbose', 'local', 'init', '--store', url.replace(/@[^/]*\//, '@127.0.0.1:1/')], 1],
    ];
    for (const [what, args, exit] of runs) {
      const r = await runBin(args, { env });
      expectNoSecret(what, r.stdout + r.stderr);
      expect(r.exitCode, `${what}: ${r.stderr}`).toBe(exit);
    }
    const viaEnv = await runBin(['--verbose', 'finance', 'summary', '--local', '--json'], { env: { CR_STORE: url } });
    expect(viaEnv.exitCode).toBe(2);
    expectNoSecret('CR_STORE with --local', viaEnv.stdout + viaEnv.stderr);
  });

  it('cr serve: its URL line, its log, its url file', async () => {
    const urlFile = join(dir, 'serve-url.txt');
    const s = await spawnServe(['--store', url, '--url-file', urlFile]);
    try {
      await fetch(`${s.baseUrl}/finance/summary`, { headers: { authorization: `Bearer cr_${'0'.repeat(40)}` } });
      await new Promise((r) => setTimeout(r, 200));
      expect(existsSync(urlFile)).toBe(true);
      expectNoSecret('cr serve url file', readFileSync(urlFile, 'utf8'));
    } finally {
      await s.stop();
    }
    expect(s.stderr()).toMatch(/over postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\//);
    expectNoSecret('cr serve output', s.stdout() + s.stderr());
  });

  it('a password that is not percent-encoded: exit 2 and the URL shown only up to its user name', async () => {
    // The whole password raw, and one whose only raw characters are a / before an @: the host a
    // parser would find then lies inside the password.
    for (const given of [raw(url), withPassword(url, 'Zq1/Xj2@Vk3')]) {
      for (const args of [
        ['local', 'keys', 'list', '--store', given],
        ['local', 'seed', '--store', given, fixture, '--json'],
        ['local', 'copy', '--from', given, '--to', join(dir, 'never.json')],
        ['serve', '--store', given, '--port', '0'],
      ]) {
        const r = await runBin(args);
        expect(r.exitCode, r.stderr).toBe(2);
        expectNoSecret(args.slice(0, 2).join(' '), r.stdout + r.stderr);
        expect(r.stderr).toContain('the store URL postgres://postgres… cannot be read');
      }
      const viaEnv = await runBin(['local', 'keys', 'list'], { env: { CR_STORE: given } });
      expect(viaEnv.exitCode).toBe(2);
      expectNoSecret('CR_STORE', viaEnv.stdout + viaEnv.stderr);
    }
    expect(existsSync(join(dir, 'never.json'))).toBe(false);
  });
});
