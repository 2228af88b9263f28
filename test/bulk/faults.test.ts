import { afterAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { runBin } from '../helpers/cli.js';
import { spawnServe } from '../helpers/serve.js';
import { KEYS, IDS } from '../server/helpers.js';
import { createFaultInjector, parseFaults, seededRandom } from '../../src/server/app/faults.js';

afterAll(() => cleanupTempDirs());

const schedule = (baseUrl: string, key: string = KEYS.editorW1) =>
  fetch(`${baseUrl}/social/posts/${IDS.postDraft}/schedule`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ scheduled_at: '2030-01-01T00:00:00Z' }),
  }).then(
    (r) => ({ status: r.status, fault: r.headers.get('x-cr-fault'), retryAfter: r.headers.get('retry-after'), remaining: r.headers.get('x-ratelimit-remaining') }),
    () => ({ status: 0, fault: null, retryAfter: null, remaining: null }),
  );

describe('cr serve --faults (the built binary)', () => {
  it('injects statuses and dropped connections per route, logs each on stderr, and --seed repeats them', async () => {
    const spec = 'scheduleSocialPost:status=503,rate=0.3;/social/posts/*/schedule:drop,rate=0.2;/social/**:status=429,rate=0.2,retry_after=7';
    const runs: number[][] = [];
    for (let i = 0; i < 2; i++) {
      const srv = await spawnServe(['--faults', spec, '--seed', '42'], { fixture: true });
      try {
        const statuses: number[] = [];
        for (let n = 0; n < 30; n++) {
          const r = await schedule(srv.baseUrl);
          statuses.push(r.status);
          if (r.status === 429) expect([r.fault, r.retryAfter, r.remaining]).toEqual(['3', '7', '0']);
          if (r.status === 503) expect(r.fault).toBe('1');
        }
        // Other routes are untouched by these rules.
        const other = await fetch(`${srv.baseUrl}/intelligence/learnings`, { headers: { authorization: `Bearer ${KEYS.editorW1}` } });
        expect(other.status).toBe(200);
        runs.push(statuses);
        const faultLines = srv
          .stderr()
          .split('\n')
          .filter((l) => / fault POST \/api\/v1\/social\/posts\/[^/]+\/schedule: /.test(l));
        expect(faultLines).toHaveLength(statuses.filter((s) => s !== 200).length);
        expect(srv.stderr()).toContain('injecting faults (3 rules, --seed 42)');
      } finally {
        await srv.stop();
      }
    }
    expect(runs[0]).toEqual(runs[1]);
    for (const s of [503, 0, 429, 200]) expect(runs[0]).toContain(s);
  });

  it("'*' rules leave the probe path alone: cr local wait sees the server up, and its polls take no seeded draw", async () => {
    // The probe is what `cr local wait` polls (src/local/wait.ts); hitting it 0 or 9 times first
    // must not change which schedule requests meet a fault, or --seed would not repeat a run.
    const spec = '*:status=503,rate=0.5';
    const runs: number[][] = [];
    for (const probes of [0, 9]) {
      const srv = await spawnServe(['--faults', spec, '--seed', '42'], { fixture: true });
      try {
        for (let n = 0; n < probes; n++) expect((await fetch(`${srv.baseUrl}/openapi.json`)).status).toBe(200);
        const statuses: number[] = [];
        for (let n = 0; n < 20; n++) statuses.push((await schedule(srv.baseUrl)).status);
        runs.push(statuses);
        expect(srv.stderr()).not.toMatch(/fault GET \/api\/v1\/openapi\.json/);
        if (probes) {
          const dir = tempDir('cr-faults-wait-');
          writeFileSync(join(dir, 'url'), `${srv.baseUrl}\n`);
          const wait = await runBin(['local', 'wait', '--url-file', join(dir, 'url'), '--timeout', '5']);
          expect([wait.exitCode, wait.stdout.trim()]).toEqual([0, srv.baseUrl]);
        }
      } finally {
        await srv.stop();
      }
    }
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[0]).toContain(503);
    expect(runs[0]).toContain(200);
  }, 60_000);

  it('a bad spec is a usage error (exit 2) naming the problem', async () => {
    for (const [spec, words] of [
      ['nope:status=503', 'unknown route "nope"'],
      ['*:status=404', 'status must be 429, 500 or 503'],
      ['*:status=503,rate=2', 'rate must be a probability'],
      ['*:latency=fast', 'latency must be a duration'],
      ['*:drop,retry_after=1', 'unknown or misplaced attribute'],
    ]) {
      const r = await runBin(['serve', '--port', '0', '--faults', spec!]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(words);
    }
  });
});

describe('the fault layer', () => {
  it('parseFaults: a name of Object.prototype is an unknown route; a latency past what a timer holds is refused', () => {
    for (const route of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      expect(() => parseFaults(`${route}:drop`, 1)).toThrow(`unknown route "${route}"`);
    }
    expect(() => parseFaults('*:latency=99999999999s', 1)).toThrow('latency must be');
    expect(() => parseFaults('*:latency=10ms,jitter=3000000000', 1)).toThrow('jitter must be');
    expect(parseFaults('*:latency=2147483647', 1)).toBeDefined();
  });

  it('seededRandom: the same seed gives the same draws, another seed others', () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    const c = seededRandom(8);
    const xs = Array.from({ length: 5 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(xs);
    expect(Array.from({ length: 5 }, () => c())).not.toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
  });

  it('latency rules add up before the answer; the log escapes control characters of the path', async () => {
    const log: string[] = [];
    const inj = createFaultInjector(parseFaults('*:latency=5ms,jitter=3ms;/a*:latency=1ms;*:status=500', 1), { limit: 10, log: (l) => log.push(l) });
    // Node's parser refuses control bytes in a request line; a future parser or another
    // front might not, so the request line is handed over directly here.
    const answered = (await inj.decide('GET', '/api/v1/ab\u009bc\u001b[2J'))!;
    expect(answered.status).toBe(500);
    expect(JSON.parse(String(answered.body))).toEqual({ success: false, error: 'Internal error', code: 'INTERNAL_ERROR' });
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(/ fault GET \/api\/v1\/ab\\x9bc\\x1b\[2J: latency [5-8]ms \(rule 1\), latency 1ms \(rule 2\), status 500 \(rule 3\)$/);
  });
});
