import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs, tempDir } from '../../helpers/tmp.js';
import { clientUrlOf } from '../../../commands/serve/serve.js';

// The JSON store file only, not the `commands-pg` pass (vitest.config.ts): cr serve's --url-file is refused before any store is opened.

/**
 * `cr serve --url-file FILE` removes what an earlier run left there before it starts
 * (docs/cli-contract.md, `cr serve`); what it cannot remove is a usage error naming the
 * file, not an internal one, and the server does not start.
 */
afterAll(() => cleanupTempDirs());

describe('cr serve --url-file', () => {
  it('refuses a path it cannot replace (a directory there): exit 2, the file named, nothing started', async () => {
    const dir = tempDir('cr-urlfile-');
    const inTheWay = join(dir, 'url.txt');
    mkdirSync(inTheWay);
    const r = await runCli(['serve', '--store', join(dir, 'store.json'), '--port', '0', '--url-file', inTheWay]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`--url-file ${inTheWay}: cannot replace what is there`);
    expect(r.stderr).toContain('USAGE');
    expect(statSync(inTheWay).isDirectory()).toBe(true);
  });
});

describe('the URL cr serve records (docs/shared-sandbox.md)', () => {
  it('a server on every address is reached at loopback; any other address is kept as it is', () => {
    expect(clientUrlOf('http://0.0.0.0:4010')).toBe('http://127.0.0.1:4010');
    expect(clientUrlOf('http://[::]:4010')).toBe('http://[::1]:4010');
    expect(clientUrlOf('http://127.0.0.1:4010')).toBe('http://127.0.0.1:4010');
    expect(clientUrlOf('http://[::1]:80')).toBe('http://[::1]:80');
    expect(clientUrlOf('http://192.168.1.20:4010')).toBe('http://192.168.1.20:4010');
  });
});
