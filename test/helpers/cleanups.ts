import { afterAll } from 'vitest';

/**
 * A list of cleanups run after all tests of the file, newest first (servers stop before
 * the stores they serve are removed). Returns the list; push onto it.
 */
export function cleanupsAfterAll(): (() => Promise<unknown> | unknown)[] {
  const cleanups: (() => Promise<unknown> | unknown)[] = [];
  afterAll(async () => {
    while (cleanups.length) await cleanups.pop()!();
  });
  return cleanups;
}
