import { describe, expect, it } from 'vitest';
import { localImportsOf, sourceFiles } from './imports.js';

/**
 * No import circles in src/ and commands/ (CONTRIBUTING.md, "Layers"): each module
 * can be read, tested and loaded lazily after the ones it depends on.
 */

// Circles allowed for now: none. The test fails on any circle not listed here, and as soon
// as a listed one disappears, so that this list only ever shrinks.
const ALLOWED_CYCLES: string[] = [];

/** Every elementary circle, each written from its smallest path, as `a -> b -> … -> a`. */
function findCycles(graph: Map<string, string[]>): string[] {
  const cycles = new Set<string>();
  const nodes = [...graph.keys()].sort();
  // Johnson-style search restricted to nodes >= start: each circle is found once, from its smallest node.
  for (const start of nodes) {
    const path: string[] = [start];
    const onPath = new Set([start]);
    const walk = (node: string) => {
      for (const next of graph.get(node) ?? []) {
        if (next === start) cycles.add([...path, start].join(' -> '));
        else if (next > start && !onPath.has(next) && graph.has(next)) {
          path.push(next);
          onPath.add(next);
          walk(next);
          onPath.delete(next);
          path.pop();
        }
      }
    };
    walk(start);
  }
  return [...cycles].sort();
}

describe('import graph of src/ and commands/', () => {
  const files = sourceFiles('src', 'commands');
  const graph = new Map(files.map((f) => [f, [...new Set(localImportsOf(f))].filter((t) => files.includes(t))]));

  it('every relative import resolves to a source file', () => {
    const missing = files.flatMap((f) =>
      localImportsOf(f)
        .filter((t) => !files.includes(t))
        .map((t) => `${f} imports ${t}`),
    );
    expect(missing).toEqual([]);
  });

  it('has no import circle (other than the known ones being removed)', () => {
    const cycles = findCycles(graph);
    expect(
      cycles.filter((c) => !ALLOWED_CYCLES.includes(c)),
      'import circles (path shown)',
    ).toEqual([]);
    expect(
      ALLOWED_CYCLES.filter((c) => !cycles.includes(c)),
      'allowed circles that are gone: remove them from ALLOWED_CYCLES',
    ).toEqual([]);
  });

  it('the search finds a circle and names its path', () => {
    const g = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
    ]);
    expect(findCycles(g)).toEqual(['a -> b -> c -> a']);
  });
});
