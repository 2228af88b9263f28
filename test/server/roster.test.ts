import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { Roster } from '../../src/server/transport/roster.js';

describe('Roster', () => {
  it('holds what was added until it is removed, reuses emptied slots, and iterates what is left', () => {
    const roster = new Roster<{ n: number }>();
    const a = { n: 1 };
    const b = { n: 2 };
    const c = { n: 3 };
    const sa = roster.add(a);
    const sb = roster.add(b);
    expect(roster.size).toBe(2);
    roster.remove(sa, a);
    expect([...roster]).toEqual([b]);
    expect(roster.add(c)).toBe(sa);
    expect([...roster]).toEqual([c, b]);
    // A slot now holding something else is left alone.
    roster.remove(sa, a);
    expect(roster.size).toBe(2);
    roster.remove(sb, b);
    roster.remove(sb, b);
    expect(roster.size).toBe(1);
    expect([...roster]).toEqual([c]);
  });

  it('can be emptied while it is iterated', () => {
    const roster = new Roster<{ n: number }>();
    const items = [1, 2, 3].map((n) => ({ n, slot: -1 }));
    for (const item of items) item.slot = roster.add(item);
    const seen: number[] = [];
    for (const item of roster) {
      seen.push(item.n);
      for (const other of items) roster.remove(other.slot, other);
    }
    expect(seen).toEqual([1]);
    expect(roster.size).toBe(0);
  });

  // What the roster is for (src/server/transport/roster.ts): a container that reached V8's old generation
  // before requests started must not keep removed entries alive through young-generation
  // collections. A Set in its place fails this: the old space grew by all of the 5 MB made (Node 20).
  it('keeps nothing it let go of alive through young-generation collections, once it is old itself', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as (o?: { type: 'minor' }) => void;
    const oldSpaceUsed = () => getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')!.space_used_size;
    const roster = new Roster<{ payload: number[] }>();
    // The roster reaches the old generation empty, as the store's load does to `cr serve`'s.
    for (let i = 0; i < 3; i++) {
      gc({ type: 'minor' });
      gc();
    }
    const before = oldSpaceUsed();
    const inFlight: [number, { payload: number[] }][] = [];
    let made = 0;
    for (let round = 0; round < 40; round++) {
      for (let i = 0; i < 64; i++) {
        const item = { payload: new Array<number>(256).fill(round) };
        made += 2 * 1024;
        inFlight.push([roster.add(item), item]);
      }
      while (inFlight.length > 16) {
        const [slot, item] = inFlight.shift()!;
        roster.remove(slot, item);
      }
      gc({ type: 'minor' });
    }
    expect(oldSpaceUsed() - before).toBeLessThan(made / 4);
  });
});
