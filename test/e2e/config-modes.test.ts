import { describe, expect, it } from 'vitest';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { runBin } from '../helpers/cli.js';
import { makeKey, readConfig, tempDir } from '../helpers/tmp.js';
import { useTestServer, ok } from '../helpers/http-server.js';
import { financeData } from '../helpers/fixtures.js';

/** The process umask is the real process's: these runs need the built binary. */
const KEY = makeKey('1a2b', '9f0e', 'c');

const server = useTestServer(ok(financeData()));

const mode = (p: string) => statSync(p).mode & 0o777;

describe('cr auth login under a loose umask', () => {
  it('config file is 0600 and folder 0700 even under umask 000', async () => {
    const parent = tempDir('cr-umask-');
    const configDir = join(parent, 'nested', 'cr');
    const r = await runBin(['auth', 'login', '--base-url', server.baseUrl, '--with-key', '--no-verify'], { input: KEY, configDir, umask: '000' });
    expect(r.exitCode).toBe(0);
    expect(mode(configDir)).toBe(0o700);
    expect(mode(join(configDir, 'config.json'))).toBe(0o600);
    // A second write (another profile) keeps the modes.
    const r2 = await runBin(['auth', 'login', '--profile', 'b', '--base-url', server.baseUrl, '--with-key', '--no-verify'], { input: KEY, configDir, umask: '000' });
    expect(r2.exitCode).toBe(0);
    expect(mode(configDir)).toBe(0o700);
    expect(mode(join(configDir, 'config.json'))).toBe(0o600);
    expect(Object.keys(readConfig(configDir)!.profiles).sort()).toEqual(['b', 'default']);
  });
});
