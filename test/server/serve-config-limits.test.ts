import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/run-cli.js';
import { runProcessSync } from '../helpers/process.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';

/**
 * `cr serve --config FILE`'s bounds (docs/shared-sandbox.md "One file for every server"): only
 * a small regular file is read, and a refusal names the key and the rule, never the value.
 */
describe('cr serve --config: what it reads and what it shows', () => {
  afterAll(() => cleanupTempDirs());
  const configFile = (content: unknown, mode = 0o600) => {
    const file = join(tempDir('cr-serve-config-'), 'serve.json');
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content), { mode });
    chmodSync(file, mode);
    return file;
  };

  it('refuses what is not a regular file, and a file over 1 MiB, with exit 2', async () => {
    const zero = await runCli(['serve', '--config', '/dev/zero']);
    expect(zero.exitCode).toBe(2);
    expect(zero.stderr).toContain('is not a regular file');
    const dir = await runCli(['serve', '--config', tempDir()]);
    expect(dir.exitCode).toBe(2);
    expect(dir.stderr).toContain('is not a regular file');
    const big = configFile('{}');
    truncateSync(big, 1024 * 1024 + 1);
    const huge = await runCli(['serve', '--config', big]);
    expect(huge.exitCode).toBe(2);
    expect(huge.stderr).toContain('is over 1024 KiB');
  });

  it('refuses a FIFO without waiting for a writer', async () => {
    const fifo = join(tempDir(), 'serve.json');
    expect(runProcessSync('mkfifo', [fifo]).exitCode).toBe(0);
    // Opening a FIFO for reading blocks until a writer comes: the check must not open it so.
    const r = await runCli(['serve', '--config', fifo]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('is not a regular file');
  });

  it('names the key and the rule, never the value', async () => {
    const port = await runCli(['serve', '--config', configFile({ port: 'Qz88' })]);
    expect(port.exitCode).toBe(2);
    expect(port.stderr).toContain('"port"');
    expect(port.stderr).toContain('must be an integer');
    expect(port.stderr).not.toContain('Qz88');
    const long = 'h'.repeat(100_000);
    const host = await runCli(['serve', '--config', configFile({ host: long })]);
    expect(host.exitCode).toBe(2);
    expect(host.stderr).toContain('exposes the server beyond this machine');
    expect(host.stderr.length).toBeLessThan(1000);
  });

  it('takes a store only as a string', async () => {
    const r = await runCli(['serve', '--config', configFile({ store: 123 })]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('"store": must be a string');
  });

  it('warns of a file others can read that holds a password in the URL query', async () => {
    const file = configFile({ store: 'postgres://cr@127.0.0.1:9/none?password=qu3ry-pw', port: 0, 'wait-for-store': 0 }, 0o644);
    const r = await runCli(['serve', '--config', file]);
    expect(r.stderr).toContain('holds a database password and others can read it (mode 0644)');
    expect(r.stderr).not.toContain('qu3ry-pw');
  });
});
