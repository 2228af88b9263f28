import { describe, expect, it } from 'vitest';
import { openWaiting, SCHEMA_RECHECK_MS } from '../../src/server/store-wait.js';
import { ReadinessGate } from '../../src/server/app/readiness-gate.js';

/**
 * `cr serve`'s wait for its store (src/server/store-wait.ts, docs/shared-sandbox.md "When the
 * database is not there"), with the opener scripted: connection-level failures are tried again
 * until the deadline while readiness says `starting`; others end the start at once; a newer
 * schema holds the server up, not ready. The pauses are recorded, not waited.
 */
const transient = (m = 'cannot open the store at postgres://h:5432/db: nothing listens at h:5432 (ECONNREFUSED)') => Object.assign(new Error(m), { transient: true });
const final = () => Object.assign(new Error('cannot open the store at postgres://h:5432/db: the database does not exist (3D000)'), { transient: false });
const tooNew = () => Object.assign(new Error("the database's cr schema is version 9, newer than this cr knows (1): upgrade cr"), { name: 'SchemaTooNewError' });

function scripted(outcomes: Array<Error | 'ok'>) {
  let calls = 0;
  return {
    open: async () => {
      const o = outcomes[Math.min(calls++, outcomes.length - 1)]!;
      if (o === 'ok') return 'store';
      throw o;
    },
    calls: () => calls,
  };
}

describe('waiting for the store at start', () => {
  it('tries a connection failure again with growing pauses, says starting meanwhile, then hands over the open store', async () => {
    const readiness = new ReadinessGate();
    const seen: unknown[] = [];
    const pauses: number[] = [];
    const notices: string[] = [];
    const s = scripted([transient(), transient(), transient(), 'ok']);
    const got = await openWaiting(s.open, {
      waitMs: 60_000,
      readiness,
      notice: (l) => notices.push(l),
      sleep: async (ms) => {
        pauses.push(ms);
        seen.push(await readiness.check());
      },
    });
    expect(got).toBe('store');
    expect(s.calls()).toBe(4);
    expect(pauses).toEqual([250, 500, 1000]);
    expect(seen[0]).toMatchObject({ ready: false, cause: 'starting', reason: expect.stringContaining('(ECONNREFUSED)') });
    expect(readiness.refusing).toBe(true);
    // One line for one failure repeated.
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/^cr serve: waiting for the store: .*\(ECONNREFUSED\); trying again for up to 60 s \(--wait-for-store\)$/);
    readiness.attach({ readiness: async () => ({ ready: true }) });
    expect(await readiness.check()).toEqual({ ready: true });
    expect(readiness.refusing).toBe(false);
  });

  it('a failure that is not the connection (3D000) ends the start at once, without a pause', async () => {
    const pauses: number[] = [];
    const s = scripted([final()]);
    await expect(openWaiting(s.open, { waitMs: 60_000, readiness: new ReadinessGate(), notice: () => undefined, sleep: async (ms) => void pauses.push(ms) })).rejects.toThrow(
      'the database does not exist (3D000)',
    );
    expect(pauses).toEqual([]);
  });

  it('past the deadline the last failure ends the start, saying how long it waited; 0 waits not at all', async () => {
    const s = scripted([transient()]);
    await expect(openWaiting(s.open, { waitMs: 1, readiness: new ReadinessGate(), notice: () => undefined, sleep: () => new Promise((r) => setTimeout(r, 5)) })).rejects.toThrow(
      /\(ECONNREFUSED\) \(still failing after --wait-for-store 0 s\)$/,
    );
    const once = scripted([transient(), 'ok']);
    await expect(openWaiting(once.open, { waitMs: 0, readiness: new ReadinessGate(), notice: () => undefined })).rejects.toThrow('(ECONNREFUSED)');
    expect(once.calls()).toBe(1);
  });

  it('a schema newer than this build: stays up, not ready (schema_newer), asks again every 30 s, serves once it can', async () => {
    const readiness = new ReadinessGate();
    const pauses: number[] = [];
    const seen: unknown[] = [];
    const s = scripted([tooNew(), tooNew(), 'ok']);
    const got = await openWaiting(s.open, {
      waitMs: 1,
      readiness,
      notice: () => undefined,
      sleep: async (ms) => {
        pauses.push(ms);
        seen.push(await readiness.check());
      },
    });
    expect(got).toBe('store');
    expect(pauses).toEqual([SCHEMA_RECHECK_MS, SCHEMA_RECHECK_MS]);
    expect(seen[0]).toMatchObject({ ready: false, cause: 'schema_newer', reason: expect.stringContaining('upgrade cr') });
    // --wait-for-store 0: a newer schema ends the start as before (exit 78).
    await expect(openWaiting(scripted([tooNew()]).open, { waitMs: 0, readiness: new ReadinessGate(), notice: () => undefined })).rejects.toThrow('newer than this cr knows');
  });
});
