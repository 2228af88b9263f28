import { beforeAll, describe, expect, it } from 'vitest';
import { KEYS, request } from './helpers.js';
import { cleanupsAfterAll } from '../helpers/cleanups.js';
import { ensureBuilt, runBin } from '../helpers/cli.js';
import { spawnServe } from '../helpers/serve.js';

/**
 * The built `cr serve` as a load balancer, Prometheus and a log shipper see it
 * (docs/local-server.md "Health, readiness, metrics", "Request log").
 */
beforeAll(() => ensureBuilt());
const cleanups = cleanupsAfterAll();

/** Waits (5 s at most) until the server's standard error holds what the test waits for. */
async function logged(s: { stderr: () => string }, pattern: RegExp): Promise<void> {
  for (let i = 0; i < 100 && !pattern.test(s.stderr()); i++) await new Promise((r) => setTimeout(r, 50));
}

describe('cr serve --log-format json', () => {
  it('every line of standard error is one JSON object, start notices included; the URL on stdout stays bare', async () => {
    const s = await spawnServe(['--log-format', 'json'], { fixture: true });
    cleanups.push(s.stop);
    expect(s.stdout()).toBe(`${s.baseUrl}\n`);
    const ok = await request(s.origin, 'GET', '/api/v1/finance/summary', { key: KEYS.viewerW1, headers: { 'x-request-id': 'ship-1' } });
    expect(ok.status).toBe(200);
    expect(ok.headers['x-request-id']).toBe('ship-1');
    // A path a client could use to forge a line: it stays inside its JSON string.
    expect((await request(s.origin, 'GET', '/api/v1/nope%0a{"forged":1}')).status).toBe(404);
    expect((await request(s.origin, 'GET', '/healthz')).status).toBe(200);
    expect((await request(s.origin, 'GET', '/readyz')).status).toBe(200);
    await logged(s, /"status":404/);
    const lines = s.stderr().trimEnd().split('\n');
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const e of entries) expect(e).toMatchObject({ time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), level: 'info', msg: expect.any(String) });
    expect(entries.some((e) => String(e.msg).startsWith('cr serve: listening on '))).toBe(true);
    const requests = entries.filter((e) => e.msg === 'request');
    // The probes are not logged at the default level.
    expect(requests.map((e) => e.path)).toEqual(['/api/v1/finance/summary', '/api/v1/nope\n{"forged":1}']);
    expect(requests[0]).toMatchObject({ request_id: 'ship-1', method: 'GET', status: 200, ms: expect.any(Number), key_id: expect.any(String) });
    expect(requests[1]).toMatchObject({ status: 404, key_id: null, request_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    for (const key of Object.values(KEYS)) expect(s.stderr()).not.toContain(key);
    expect((await s.stop()).code).toBe(0);
  });

  it('a server that cannot start says why in one JSON line too', async () => {
    const first = await spawnServe([], { fixture: true });
    cleanups.push(first.stop);
    const second = await runBin(['serve', '--log-format', 'json', '--port', String(first.port), '--store', `${first.storePath}.other.json`]);
    expect(second.exitCode).toBe(1);
    const lines = second.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ error: expect.stringContaining('already in use'), code: 'ADDRESS_IN_USE' });
  });

  it('a bad --log-format or --log-level is a usage error (exit 2) naming the values', async () => {
    const bad = await runBin(['serve', '--log-format', 'xml', '--port', '0']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--log-format must be one of text, json');
    const level = await runBin(['serve', '--log-level', 'trace', '--port', '0']);
    expect(level.exitCode).toBe(2);
    expect(level.stderr).toContain('--log-level must be one of info, debug');
  });
});

describe('cr serve: /healthz, /readyz, /metrics', () => {
  it('answers the probes without a key and exposes Prometheus text with the requests it served', async () => {
    const s = await spawnServe([], { fixture: true });
    cleanups.push(s.stop);
    expect((await request(s.origin, 'GET', '/healthz')).json).toEqual({ success: true, data: { status: 'ok' } });
    expect((await request(s.origin, 'GET', '/readyz')).json).toEqual({ success: true, data: { ready: true } });
    expect((await request(s.origin, 'GET', '/api/v1/finance/summary', { key: KEYS.viewerW1 })).status).toBe(200);
    const metrics = await request(s.origin, 'GET', '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.text).toMatch(/^cr_http_requests_total\{route="getFinanceSummary",method="GET",status="200"\} 1$/m);
    expect(metrics.text).toMatch(/^cr_ready\{cause=""\} 1$/m);
    expect(metrics.text).toMatch(/^process_cpu_seconds_total \d/m);
    // The text log stays as it was: the request, and no probe.
    await logged(s, /summary 200/);
    expect(s.stderr()).toMatch(/ GET \/api\/v1\/finance\/summary 200 \d+ms key=\S+\n/);
    expect(s.stderr()).not.toMatch(/healthz|readyz|metrics/);
  });
});
