import { describe, expect, it } from 'vitest';
import { applyChecked, checkBatch, type Mutation } from '../../src/server/store/store.js';
import { emptyStore } from '../../src/server/store/schema.js';

const user = (id: string) => ({ id, email: `${id}@example.com`, name: id });

describe('checkBatch + applyChecked (one group commit)', () => {
  it('checking changes nothing; applying does every write in place, in order', () => {
    const state = { ...emptyStore(), users: [user('a')] };
    const list = state.users;
    const writes: Mutation[][] = [
      [{ op: 'insert', collection: 'users', record: user('b') }],
      [{ op: 'patch', collection: 'users', id: 'b', patch: { name: 'B' } }],
      [{ op: 'patch', collection: 'users', id: 'a', patch: { name: 'A' } }],
    ];
    const indexes = new Map();
    expect(checkBatch(state, indexes, writes).size).toBe(0);
    expect(state.users).toEqual([user('a')]);
    applyChecked(state, indexes, writes);
    expect(state.users.map((u) => `${u.id}:${u.name}`)).toEqual(['a:A', 'b:B']);
    // In place: no copy of the collection, and the id index follows the inserts.
    expect(state.users).toBe(list);
    expect(indexes.get('users')).toEqual(
      new Map([
        ['a', 0],
        ['b', 1],
      ]),
    );
  });

  it('a failing write fails whole: its own inserts do not count for later writes', () => {
    const state = { ...emptyStore(), users: [user('a')] };
    const writes: Mutation[][] = [
      [{ op: 'insert', collection: 'users', record: user('b') }],
      [
        { op: 'insert', collection: 'users', record: user('c') },
        { op: 'patch', collection: 'users', id: 'a', patch: { name: 'changed' } },
        { op: 'patch', collection: 'users', id: 'missing', patch: { name: 'x' } },
      ],
      [{ op: 'patch', collection: 'users', id: 'c', patch: { name: 'never' } }],
      [{ op: 'insert', collection: 'users', record: user('d') }],
      [{ op: 'patch', collection: 'users', id: 'd', patch: { name: 'D' } }],
    ];
    const indexes = new Map();
    const failures = checkBatch(state, indexes, writes);
    expect([...failures.keys()]).toEqual([1, 2]);
    expect(failures.get(1)?.message).toBe('No users record with id missing');
    expect(failures.get(2)?.message).toBe('No users record with id c');
    applyChecked(
      state,
      indexes,
      writes.filter((_, i) => !failures.has(i)),
    );
    expect(state.users.map((u) => `${u.id}:${u.name}`)).toEqual(['a:a', 'b:b', 'd:D']);
  });

  it('a write may patch what it inserts itself', () => {
    const state = emptyStore();
    const writes: Mutation[][] = [
      [
        { op: 'insert', collection: 'users', record: user('x') },
        { op: 'patch', collection: 'users', id: 'x', patch: { name: 'X' } },
      ],
    ];
    expect(checkBatch(state, new Map(), writes).size).toBe(0);
    applyChecked(state, new Map(), writes);
    expect(state.users).toEqual([{ ...user('x'), name: 'X' }]);
  });
});
