import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/server/store/open-store.js';
import { emptyStore } from '../../src/server/store/collections.js';
import type { ApiStore } from '../../src/server/store/api-store.js';
import { memoByGeneration } from '../../src/server/domain/compute/memo.js';

describe('memoByGeneration', () => {
  it('computes once per key while the store is unchanged, and again after a commit', async () => {
    const store = await openStore({ memory: emptyStore() });
    const memo = memoByGeneration<number>();
    let runs = 0;
    const read = (key: string) => memo(store, key, () => ++runs);
    expect(await read('a')).toBe(1);
    expect(await read('a')).toBe(1);
    expect(await read('b')).toBe(2);
    expect(runs).toBe(2);
    await store.commit([{ op: 'insert', collection: 'users', record: { id: 'u1', email: 'u@example.com', name: 'U' } }]);
    expect(await read('a')).toBe(3);
    expect(await read('a')).toBe(3);
  });

  it('keeps at most maxKeys results', async () => {
    const store = await openStore({ memory: emptyStore() });
    const memo = memoByGeneration<string>(2);
    let runs = 0;
    const read = (key: string) => memo(store, key, () => `${key}${++runs}`);
    await read('a');
    await read('b');
    await read('c');
    expect(await read('c')).toBe('c3');
    expect(await read('a')).toBe('a4');
  });

  it('keeps nothing for a store that others write too (version undefined)', async () => {
    const shared = Object.create(await openStore({ memory: emptyStore() }), { version: { value: undefined } }) as ApiStore;
    const memo = memoByGeneration<number>();
    let runs = 0;
    expect(await memo(shared, 'a', () => ++runs)).toBe(1);
    expect(await memo(shared, 'a', () => ++runs)).toBe(2);
  });

  it('does not keep a result computed while a commit landed', async () => {
    const store = await openStore({ memory: emptyStore() });
    const memo = memoByGeneration<number>();
    let runs = 0;
    const first = await memo(store, 'a', async () => {
      await store.commit([{ op: 'insert', collection: 'users', record: { id: 'u1', email: 'u@example.com', name: 'U' } }]);
      return ++runs;
    });
    expect(first).toBe(1);
    expect(await memo(store, 'a', () => ++runs)).toBe(2);
  });
});
