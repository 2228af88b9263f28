import { describe, expect, it } from 'vitest';
import type { IncomingMessage } from 'node:http';
import { openingAnswer } from '../../src/server/app/opening-answer.js';
import { probeRoutes } from '../../src/server/app/probe-routes.js';
import { ReadinessGate } from '../../src/server/app/readiness-gate.js';
import { allowedHostSet } from '../../src/server/app/host-check.js';

/**
 * What `cr serve`'s listener answers before its store is open (src/server/app/opening-answer.ts):
 * the probe routes themselves, and once the start-up waits, the API's 503 with the cause it
 * waits for, after the Host check. The whole server over a database that is not up yet:
 * test/store-pg/store-health.test.ts.
 */
const request = (url: string, host = '127.0.0.1:4010', method = 'GET') => ({ url, method, headers: { host } }) as unknown as IncomingMessage;

function setup() {
  const readiness = new ReadinessGate();
  const answer = openingAnswer({ probes: probeRoutes({ readiness }), readiness, allowed: allowedHostSet() });
  return { readiness, answer };
}

describe('answers before the store is open', () => {
  it('during the first attempt: probes are answered (503 starting), anything else waits for the store', async () => {
    const { answer } = setup();
    const ready = await answer(request('/readyz'))!;
    expect(ready.status).toBe(503);
    expect(ready.headers['retry-after']).toBe('2');
    expect(JSON.parse(String(ready.body))).toMatchObject({ code: 'NOT_READY', details: [{ path: 'cause', message: 'starting' }, { path: 'reason' }] });
    expect((await answer(request('/healthz'))!).status).toBe(200);
    expect(answer(request('/api/v1/content/listeners'))).toBeUndefined();
  });

  it('while the start-up waits: the API 503 with its cause and Retry-After; /readyz says why', async () => {
    const { readiness, answer } = setup();
    readiness.waiting('schema_newer', "the database's cr schema is version 9");
    const api = await answer(request('/api/v1/content/listeners'))!;
    expect(api.status).toBe(503);
    expect(api.headers['Retry-After']).toBe('60');
    expect(JSON.parse(String(api.body))).toEqual({
      success: false,
      error: 'Store unavailable',
      code: 'STORE_UNAVAILABLE',
      details: [{ path: 'cause', message: 'schema_newer' }],
    });
    const ready = JSON.parse(String((await answer(request('/readyz?verbose=1'))!).body));
    expect(ready.details).toEqual([
      { path: 'cause', message: 'schema_newer' },
      { path: 'reason', message: "the database's cr schema is version 9" },
    ]);
  });

  it('a foreign Host gets the 403 of the Host check, never a probe answer', async () => {
    const { readiness, answer } = setup();
    expect(answer(request('/readyz', 'evil.example'))).toBeUndefined();
    readiness.waiting('starting', 'nothing listens at 127.0.0.1:5432 (ECONNREFUSED)');
    const refused = await answer(request('/readyz', 'evil.example'))!;
    expect(refused.status).toBe(403);
    expect(JSON.parse(String(refused.body))).toMatchObject({ code: 'FORBIDDEN' });
  });
});
