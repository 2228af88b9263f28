import { describe, expect, it } from 'vitest';
import { READINESS_CACHE_MS, ReadinessGate, STARTING } from '../../src/server/app/readiness-gate.js';
import type { Readiness } from '../../src/server/store/readiness.js';
import { READY } from '../../src/server/store/readiness.js';

/** A store whose readiness is counted and set by the test. */
function countingStore(answer: () => Promise<Readiness>) {
  const store = { asked: 0, readiness: () => (store.asked++, answer()) };
  return store;
}

describe('ReadinessGate (what GET /readyz reads)', () => {
  it('says starting until a store is attached, then asks the store', async () => {
    const gate = new ReadinessGate();
    expect(await gate.check()).toBe(STARTING);
    gate.attach(countingStore(async () => READY));
    expect(await gate.check()).toEqual({ ready: true });
  });

  it('keeps one store answer for a second and shares it between concurrent polls', async () => {
    let now = 0;
    const gate = new ReadinessGate(() => now);
    let answer: Readiness = READY;
    const store = countingStore(async () => answer);
    gate.attach(store);
    const polls = await Promise.all([gate.check(), gate.check(), gate.check()]);
    expect(polls).toEqual([READY, READY, READY]);
    expect(store.asked).toBe(1);
    answer = { ready: false, cause: 'database_unreachable', reason: 'gone' };
    now = READINESS_CACHE_MS - 1;
    expect(await gate.check()).toEqual(READY);
    now = READINESS_CACHE_MS;
    expect(await gate.check()).toEqual(answer);
    expect(store.asked).toBe(2);
  });

  it('what the serve code holds comes before the store; a store that throws is not ready', async () => {
    const gate = new ReadinessGate();
    gate.attach(countingStore(() => Promise.reject(new Error('socket closed'))));
    gate.hold({ ready: false, cause: 'starting', reason: 'reconnecting' });
    expect(await gate.check()).toEqual({ ready: false, cause: 'starting', reason: 'reconnecting' });
    gate.hold(undefined);
    expect(await gate.check()).toMatchObject({ ready: false, cause: 'database_unreachable' });
  });

  it('what the start-up waits for is said and refuses requests until a store is attached, then the store answers', async () => {
    const gate = new ReadinessGate();
    expect(gate.refusing).toBe(false);
    gate.waiting('schema_newer', 'the schema is version 9');
    expect(gate.refusing).toBe(true);
    expect(await gate.check()).toEqual({ ready: false, cause: 'schema_newer', reason: 'the schema is version 9' });
    gate.attach(countingStore(async () => READY));
    expect(gate.refusing).toBe(false);
    expect(await gate.check()).toEqual(READY);
    // Once a store is attached the start-up has nothing more to say.
    gate.waiting('starting', 'late');
    expect(await gate.check()).toEqual(READY);
  });

  it('a hold of the serve code outlives the store being attached; the start-up state does not', async () => {
    const gate = new ReadinessGate();
    const held: Readiness = { ready: false, cause: 'lock_lost', reason: 'taken over' };
    gate.hold(held);
    gate.attach(countingStore(async () => READY));
    expect(await gate.check()).toBe(held);
  });
});
