import { describe, expect, it } from 'vitest';
import { applyChecked, checkBatch, type Mutation } from '../../src/server/store/store.js';
import { emptyStore } from '../../src/server/store/collections.js';
import { Replayer } from '../../src/server/store/replay.js';
import { checkMutation } from '../../src/server/store/batch.js';

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

describe('remove and clear (cr local reset)', () => {
  const post = (id: string, websiteId: string) => ({ id, websiteId, status: 'draft' as const, content: id, scheduledAt: null, createdAt: 'x', updatedAt: 'x' });
  const state = () => ({ ...emptyStore(), users: [user('a'), user('b')], social_posts: [post('p1', 'w1'), post('p2', 'w2'), post('p3', 'w1')] });

  it('remove drops ids (missing ones are no error), clear drops a website’s records, in place, the rest in order', () => {
    const s = state();
    const posts = s.social_posts;
    const writes: Mutation[][] = [[{ op: 'remove', collection: 'users', ids: ['a', 'nobody'] }], [{ op: 'clear', collection: 'social_posts', websiteId: 'w1' }]];
    const indexes = new Map();
    expect(checkBatch(s, indexes, writes).size).toBe(0);
    applyChecked(s, indexes, writes);
    expect(s.users.map((u) => u.id)).toEqual(['b']);
    expect(s.social_posts).toBe(posts);
    expect(s.social_posts.map((p) => p.id)).toEqual(['p2']);
  });

  it('a patch of a record removed or cleared earlier in the batch fails its write; one inserted again after is fine', () => {
    const s = state();
    const writes: Mutation[][] = [
      [{ op: 'clear', collection: 'social_posts', websiteId: 'w1' }],
      [{ op: 'patch', collection: 'social_posts', id: 'p1', patch: { content: 'x' } }],
      [{ op: 'patch', collection: 'social_posts', id: 'p2', patch: { content: 'kept' } }],
      [
        { op: 'remove', collection: 'users', ids: ['a'] },
        { op: 'insert', collection: 'users', record: user('a') },
        { op: 'patch', collection: 'users', id: 'a', patch: { name: 'again' } },
      ],
      [
        { op: 'clear', collection: 'users' },
        { op: 'patch', collection: 'users', id: 'b', patch: { name: 'gone' } },
      ],
    ];
    const failures = checkBatch(s, new Map(), writes);
    expect([...failures.keys()]).toEqual([1, 4]);
  });

  it('a record moved into a website by a patch, then that website cleared: a later patch of it fails its write (never applied to a record gone)', () => {
    const s = state();
    const writes: Mutation[][] = [
      [{ op: 'patch', collection: 'social_posts', id: 'p2', patch: { websiteId: 'w1' } }],
      [{ op: 'clear', collection: 'social_posts', websiteId: 'w1' }],
      [{ op: 'patch', collection: 'social_posts', id: 'p2', patch: { content: 'x' } }],
    ];
    const indexes = new Map();
    const failures = checkBatch(s, indexes, writes);
    expect([...failures.keys()]).toEqual([2]);
    applyChecked(s, indexes, writes.slice(0, 2));
    expect(s.social_posts).toEqual([]);
  });

  it('journal lines with remove and clear replay over the data, and malformed ones are refused', () => {
    const s = state();
    const r = new Replayer('store.json.journal', s);
    r.apply(1, [[{ op: 'clear', collection: 'social_posts', websiteId: 'w2' }], [{ op: 'remove', collection: 'users', ids: ['b'] }]]);
    r.finish();
    expect(s.social_posts.map((p) => p.id)).toEqual(['p1', 'p3']);
    expect(s.users.map((u) => u.id)).toEqual(['a']);
    expect(checkMutation({ op: 'remove', collection: 'users', ids: [1] })).toBe(false);
    expect(checkMutation({ op: 'clear', collection: 'users', websiteId: 7 })).toBe(false);
    expect(checkMutation({ op: 'clear', collection: 'nowhere' })).toBe(false);
    expect(() => r.apply(2, [[{ op: 'remove', collection: 'users', ids: 'b' }]])).toThrow(/line 2: not a list of store mutations/);
  });
});
