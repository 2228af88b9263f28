import { afterAll } from 'vitest';

/**
 * A list of cleanups run after all tests of the file, newest first (servers stop before
 * the stores they serve are removed). Returns the list; push onto it. Vitest runs afterAll
 * hooks newest first, so call this after `afterAll(cleanupTempDirs)`: the processes stop
 * before their folders go.
 */
export function cleanupsAfterAll(): (() => Promise<unknown> | unknown)[] {
  const cleanups: (() => Promise<unknown> | unknown)[] = [];
  afterAll(async () => {
    while (cleanups.length) await cleanups.pop()!();
  });
  return cleanups;
}
