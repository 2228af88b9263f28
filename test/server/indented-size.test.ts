import { describe, expect, it } from 'vitest';
import { indentedJsonBytes } from '../../src/server/store/indented-size.js';

const indented = (v: unknown) => Buffer.byteLength(JSON.stringify(v, null, 2));

/** A small random JSON value: nesting, empty containers, and strings full of JSON's own characters. */
function randomValue(seed: { n: number }, depth = 0): unknown {
  const r = () => {
    seed.n = (seed.n * 1103515245 + 12345) % 2 ** 31;
    return seed.n / 2 ** 31;
  };
  const pieces = ['a', '"', '\\', '\\"', '{', '}', '[', ']', ',', ':', ' ', '\n', 'é', '😀', '\u0001', '\ud800', 'key'];
  const str = () => Array.from({ length: Math.floor(r() * 6) }, () => pieces[Math.floor(r() * pieces.length)]).join('');
  const pick = r();
  if (depth > 4 || pick < 0.3) return [str(), 42, -1.5e-7, true, false, null][Math.floor(r() * 6)];
  if (pick < 0.65) return Array.from({ length: Math.floor(r() * 4) }, () => randomValue(seed, depth + 1));
  return Object.fromEntries(Array.from({ length: Math.floor(r() * 4) }, () => [str(), randomValue(seed, depth + 1)]));
}

describe('indentedJsonBytes (the group commit’s measure of a write’s growth, intake.ts)', () => {
  it('gives the byte length of the indented JSON for a write and for the edge cases of the format', () => {
    const write = [
      {
        op: 'insert',
        collection: 'content_listeners',
        record: { id: 'x', name: 'bench "listener" \\ 1', query_config: { subreddit: 'smallbusiness', keywords: ['seo', 'é😀'] }, tags: [], meta: {}, n: null },
      },
    ];
    for (const v of [write, [], {}, [[]], [{}], { a: [] }, { '': '' }, 'a"b\\', ['\\\\"'], [1, [2, [3, []]]], { 'a:b,c': '{[' }]) {
      expect(indentedJsonBytes(JSON.stringify(v))).toBe(indented(v));
    }
  });

  it('agrees with JSON.stringify(value, null, 2) on a thousand random values', () => {
    const seed = { n: 7 };
    for (let i = 0; i < 1000; i++) {
      const v = randomValue(seed);
      expect(indentedJsonBytes(JSON.stringify(v))).toBe(indented(v));
    }
  });
});
