import { describe, expect, it } from 'vitest';
import { Store } from '../../src/server/store/store.js';
import { emptyStore } from '../../src/server/store/schema.js';
import { memoByGeneration } from '../../src/server/compute/memo.js';

describe('memoByGeneration', () => {
  it('computes once per key while the store is unchanged, and again after a commit', async () => {
    const store = Store.memory(emptyStore());
    const memo = memoByGeneration<number>();
    let runs = 0;
    const read = (key: string) => memo(store, key, () => ++runs);
    expect(read('a')).toBe(1);
    expect(read('a')).toBe(1);
    expect(read('b')).toBe(2);
    expect(runs).toBe(2);
    await store.commit([{ op: 'insert', collection: 'users', record: { id: 'u1', email: 'u@example.com', name: 'U' } }]);
    expect(read('a')).toBe(3);
    expect(read('a')).toBe(3);
  });

  it('keeps at most maxKeys results', () => {
    const store = Store.memory(emptyStore());
    const memo = memoByGeneration<string>(2);
    let runs = 0;
    const read = (key: string) => memo(store, key, () => `${key}${++runs}`);
    read('a');
    read('b');
    read('c');
    expect(read('c')).toBe('c3');
    expect(read('a')).toBe('a4');
  });
});
