import { afterAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs, tempDir } from '../../helpers/tmp.js';

// The JSON store file only, not the `commands-pg` pass (vitest.config.ts): --local works on store files only (docs/shared-sandbox.md).

/**
 * `--local` in-process: the embedded server runs in this process over the default store
 * under the run's HOME (never the real one: the context's env decides the paths).
 */
afterAll(() => cleanupTempDirs());

describe('--local on a fresh machine', () => {
  it('creates the default store with demo data, says so on stderr, and answers', async () => {
    const home = tempDir('cr-e2e-home-');
    const store = join(home, '.local', 'share', 'cr', 'store.json');
    const first = await runCli(['finance', 'summary', '--local', '--json'], { configDir: home, env: { HOME: home } });
    expect(first.exitCode).toBe(0);
    expect(existsSync(store)).toBe(true);
    expect(first.stderr).toContain(store);
    const summary = JSON.parse(first.stdout) as { summaries: unknown[] };
    expect(summary.summaries.length).toBeGreaterThan(0);

    const again = await runCli(['finance', 'summary', '--local', '--json'], { configDir: home, env: { HOME: home } });
    expect(again.exitCode).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual(summary);
    expect(again.stderr).not.toContain('created');
  });

  it('refuses the request headers a server is never sent (cr api -H), as over HTTP', async () => {
    const home = tempDir('cr-e2e-home-');
    const fields = ['-F', 'name=x', '-F', 'source_type=rss', '-F', 'query_config[feed_url]=https://example.com/f'];
    for (const [header, why] of [
      ['Expect: 100-continue', 'expect header not supported'],
      ['Transfer-Encoding: chunked', 'invalid transfer-encoding header'],
      ['Upgrade: websocket', 'invalid upgrade header'],
      ['Content-Length: 5', 'Request body length does not match content-length header'],
    ]) {
      const r = await runCli(['api', '/content/listeners', '--local', ...fields, '-H', header!], { configDir: home, env: { HOME: home } });
      expect(r.exitCode, header).toBe(8);
      expect(r.stderr, header).toContain(why);
    }
  });

  it('never falls back to local mode on its own', async () => {
    const home = tempDir('cr-e2e-home-');
    const r = await runCli(['finance', 'summary'], { configDir: home, env: { HOME: home } });
    expect(r.exitCode).toBe(3);
    expect(existsSync(join(home, '.local', 'share', 'cr', 'store.json'))).toBe(false);
  });
});
