import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs, tempDir } from '../../helpers/tmp.js';

afterAll(() => cleanupTempDirs());

/** Every line of standard error one JSON object, parsed, and the usage error's code in it. */
function expectJsonUsage(r: { exitCode: number; stderr: string }, says: string) {
  expect(r.exitCode).toBe(2);
  const lines = r.stderr.trimEnd().split('\n');
  const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(parsed.at(-1)).toMatchObject({ error: expect.stringContaining(says), code: 'USAGE' });
}

/**
 * `cr serve --log-format json` (on the command line or in its --config file): its usage errors,
 * found before or while the options are read, are JSON lines like every other line it writes
 * (docs/local-server.md "Request log"; commands/serve/log-format-prescan.ts).
 */
describe('cr serve --log-format json: usage errors', () => {
  it('a bad option value, read by the parser before the command runs', async () => {
    expectJsonUsage(await runCli(['serve', '--log-format', 'json', '--rate-limit', 'abc']), '--rate-limit');
    expectJsonUsage(await runCli(['serve', '--rate-limit', 'abc', '--log-format=json']), '--rate-limit');
  });

  it('--host 0.0.0.0 without --allowed-host', async () => {
    expectJsonUsage(await runCli(['serve', '--log-format', 'json', '--host', '0.0.0.0', '--port', '0']), 'exposes the server');
  });

  it('an unknown key of the --config file, and a bad port in a file that asks for the JSON log', async () => {
    const dir = tempDir('cr-serve-json-usage-');
    const unknown = join(dir, 'unknown.json');
    writeFileSync(unknown, JSON.stringify({ 'no-such-option': 1 }), { mode: 0o600 });
    expectJsonUsage(await runCli(['serve', '--config', unknown, '--log-format', 'json']), 'is not an option of cr serve');
    const badPort = join(dir, 'port.json');
    writeFileSync(badPort, JSON.stringify({ 'log-format': 'json', port: 'eighty' }), { mode: 0o600 });
    expectJsonUsage(await runCli(['serve', '--config', badPort]), '"port"');
    // A file others can read that holds a password: its warning is a JSON line before the error.
    const shared = join(dir, 'shared.json');
    writeFileSync(shared, JSON.stringify({ 'log-format': 'json', store: 'postgres://cr:secret@127.0.0.1:1/cr', port: 'eighty' }), { mode: 0o644 });
    const r = await runCli(['serve', '--config', shared]);
    expectJsonUsage(r, '"port"');
    expect(r.stderr).toContain('others can read it');
    expect(r.stderr).not.toContain('secret');
  });

  it('the command line wins: --log-format text over a file that says json keeps the plain line', async () => {
    const dir = tempDir('cr-serve-json-usage-');
    const file = join(dir, 'c.json');
    writeFileSync(file, JSON.stringify({ 'log-format': 'json', port: 'eighty' }), { mode: 0o600 });
    const r = await runCli(['serve', '--config', file, '--log-format', 'text']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^error: .*"port".*\(USAGE\)\n$/);
  });
});
