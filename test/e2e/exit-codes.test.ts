import { describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeKey, tempDir } from '../helpers/tmp.js';
import { useTestServer, ok, fail, type Reply } from '../helpers/http-server.js';

/**
 * The exit code and the streams as a shell sees them: the process exit of src/main.ts
 * after the mapping, with stdout flushed. The mapping itself is covered in-process
 * (test/commands/api/exit-codes.test.ts); these only prove it reaches the process.
 */
const KEY = makeKey('1a2b', '9f0e', '8');
const server = useTestServer(ok({ hello: 'world' }));

const env = () => ({ CR_API_KEY: KEY, CR_BASE_URL: server.baseUrl });

describe('exit codes of the built binary', () => {
  it('success → 0 with the data on stdout, nothing on stderr', async () => {
    const r = await runBin(['api', '/x'], { env: env() });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ hello: 'world' });
    expect(r.stderr).toBe('');
  });

  it.each([
    ['401', fail(401, 'Invalid API key', 'INVALID_API_KEY'), 3],
    ['404', fail(404, 'Post not found'), 5],
    ['500', fail(500, 'Internal error', 'INTERNAL_ERROR'), 8],
  ] as [string, Reply, number][])('%s → the mapped exit code, one error line, nothing on stdout', async (_name, reply, code) => {
    server.handle(reply);
    const r = await runBin(['api', '/x'], { env: env() });
    expect(r.exitCode).toBe(code);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^error: /);
    expect(r.stderr).not.toContain(KEY);
  });

  it('a usage error → 2, nothing sent', async () => {
    const r = await runBin(['api', '/x', '--bogus'], { env: env() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^error: .*\(USAGE\)$/m);
    expect(server.requests).toHaveLength(0);
  });

  it('stderr to a pipe is written whole before the exit (20,000 plan problems: the first 20, how many more, then the error line)', async () => {
    const file = join(tempDir(), 'plan.csv');
    writeFileSync(file, ['id,at', ...Array.from({ length: 20_000 }, (_, i) => `bad${i},x`)].join('\n') + '\n');
    const r = await runBin(['posts', 'schedule', '--from', file], { env: env() });
    expect(r.exitCode).toBe(2);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(22);
    expect(lines.at(-2)).toBe(`${file}: and 19980 more problems`);
    expect(lines.at(-1)).toBe(`error: ${file}: 20000 problems in the plan; nothing was sent (USAGE)`);
    expect(server.requests).toHaveLength(0);
  });

  it('a bulk run whose 16 sends all wait to be retried: the summary and the error line, no Node warning on stderr', async () => {
    // Each send waiting out its backoff listens for Ctrl-C on the run's signal: past ten at
    // once, Node would print a MaxListenersExceededWarning ("possible memory leak").
    server.handle(fail(503, 'Service unavailable', 'SERVICE_UNAVAILABLE'));
    const file = join(tempDir(), 'plan.csv');
    const ids = Array.from({ length: 16 }, (_, i) => `3b2f9c1e-2d1a-4c8e-9a51-${String(i).padStart(12, '0')}`);
    writeFileSync(file, ['id,at', ...ids.map((id) => `${id},+1d`)].join('\n') + '\n');
    const r = await runBin(['posts', 'schedule', '--from', file, '--concurrency', '16', '--retry', '1', '--json'], { env: env() });
    expect(r.exitCode).toBe(8);
    expect(r.stderr).toContain('0 scheduled, 0 skipped, 16 failed, 0 not sent; 16 retries after transient failures');
    expect(r.stderr).not.toMatch(/Warning/);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(2);
  });
});
