import { describe, expect, it } from 'vitest';
import { applyBatch, type Mutation } from '../../src/server/store.js';
import { emptyStore } from '../../src/server/store-schema.js';

const user = (id: string) => ({ id, email: `${id}@example.com`, name: id });

describe('applyBatch (one group commit)', () => {
  it('applies every write, copying each touched collection once and leaving the input untouched', () => {
    const state = { ...emptyStore(), users: [user('a')] };
    const writes: Mutation[][] = [
      [{ op: 'insert', collection: 'users', record: user('b') }],
      [{ op: 'patch', collection: 'users', id: 'b', patch: { name: 'B' } }],
      [{ op: 'patch', collection: 'users', id: 'a', patch: { name: 'A' } }],
    ];
    const r = applyBatch(state, new Map(), writes);
    expect(r.failures.size).toBe(0);
    expect(r.state.users.map((u) => `${u.id}:${u.name}`)).toEqual(['a:A', 'b:B']);
    expect(state.users).toEqual([user('a')]);
    expect([...r.touched]).toEqual(['users']);
  });

  it('undoes a failing write completely and keeps the others', () => {
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
    ];
    const r = applyBatch(state, new Map(), writes);
    expect([...r.failures.keys()]).toEqual([1, 2]);
    expect(r.failures.get(1)?.message).toContain('missing');
    expect(r.state.users.map((u) => `${u.id}:${u.name}`)).toEqual(['a:a', 'b:b', 'd:d']);
  });
});
