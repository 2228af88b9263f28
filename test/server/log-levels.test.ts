import { describe, expect, it } from 'vitest';
import { jsonLogLine, jsonNoticeLine } from '../../src/server/app/log-format.js';
import { exitAfterStoreLoss } from '../../src/server/lost-store-exit.js';
import { openWaiting } from '../../src/server/store-wait.js';
import { ReadinessGate } from '../../src/server/app/readiness-gate.js';

/**
 * The `level` of each JSON line of `cr serve` (src/server/app/log-format.ts, docs/local-server.md
 * "Request log"), over the lines the server's own code writes.
 */
const levelOf = (line: string) => (JSON.parse(line) as { level: string }).level;
const request = (status: number) => jsonLogLine({ method: 'GET', path: '/api/v1/x', status, ms: 1 });

describe('JSON log levels', () => {
  it('a request answered 5xx is error, any other info', () => {
    expect([200, 404, 429, 499, 500, 503].map((s) => levelOf(request(s)))).toEqual(['info', 'info', 'info', 'info', 'error', 'error']);
  });

  it('waiting for the store is warn; the store lost and stopping are error; being up is info', async () => {
    const lines: string[] = [];
    const notice = (line: string) => lines.push(jsonNoticeLine(line));
    let tries = 0;
    const transient = Object.assign(new Error('nothing listens at 127.0.0.1:5432 (ECONNREFUSED)'), { transient: true });
    await openWaiting(async () => (tries++ === 0 ? Promise.reject(transient) : 'open'), {
      waitMs: 10_000,
      readiness: new ReadinessGate(),
      notice,
      sleep: async () => undefined,
    });
    const schema = Object.assign(new Error('the schema is newer'), { name: 'SchemaTooNewError' });
    let asked = 0;
    await openWaiting(async () => (asked++ === 0 ? Promise.reject(schema) : 'open'), { waitMs: 10_000, readiness: new ReadinessGate(), notice, sleep: async () => undefined });
    await exitAfterStoreLoss(
      '/tmp/store.json',
      async () => Promise.reject(new Error('drain failed')),
      notice,
      () => undefined,
    );
    notice('cr serve: listening on http://127.0.0.1:4010 over /tmp/store.json (Ctrl-C to stop)');
    expect(lines.map(levelOf)).toEqual(['warn', 'warn', 'error', 'error', 'info']);
  });
});
