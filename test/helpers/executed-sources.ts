import { readdirSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './cli.js';

const BUNDLE = join(ROOT, 'dist', 'bundle', 'cli.js');
const MODULES = `${pathToFileURL(join(ROOT, 'node_modules')).href}/`;

interface FunctionCoverage {
  functionName: string;
  ranges: { startOffset: number; endOffset: number; count: number }[];
}

/**
 * The sources (paths as in the source map: `../../src/cli.ts`, `../../node_modules/zod/…`)
 * that had code executed in a run of the CLI bundle, read from the V8 coverage that
 * `NODE_V8_COVERAGE=<dir>` made Node write. A function counts when it ran at least once and
 * its first character is a mapped position, so code esbuild generated (module wrappers,
 * helpers) is never charged to whichever source precedes it. A file of node_modules loaded
 * beside the bundle counts when any of its code ran.
 */
export function executedSources(coverageDir: string): Set<string> {
  const text = readFileSync(BUNDLE, 'latin1');
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const map = new SourceMap(JSON.parse(readFileSync(`${BUNDLE}.map`, 'utf8')));
  const url = `file://${BUNDLE}`;
  const sources = new Set<string>();
  for (const file of readdirSync(coverageDir)) {
    const report = JSON.parse(readFileSync(join(coverageDir, file), 'utf8')) as { result: { url: string; functions: FunctionCoverage[] }[] };
    for (const script of report.result) {
      // A dependency kept out of the bundle (jq-web, scripts/bundle.mjs) runs from its own file.
      if (script.url.startsWith(MODULES) && script.functions.some((f) => (f.ranges[0]?.count ?? 0) > 0)) {
        sources.add(`node_modules/${script.url.slice(MODULES.length)}`);
        continue;
      }
      if (script.url !== url) continue;
      for (const fn of script.functions) {
        const whole = fn.ranges[0];
        if (!whole || whole.count === 0) continue;
        const line = upperBound(lineStarts, whole.startOffset) - 1;
        const column = whole.startOffset - lineStarts[line]!;
        const entry = map.findEntry(line, column) as { generatedLine?: number; generatedColumn?: number; originalSource?: string };
        if (entry.originalSource && entry.generatedLine === line && entry.generatedColumn === column) sources.add(entry.originalSource);
      }
    }
  }
  return sources;
}

/** Index of the first element greater than `value` in a sorted array. */
function upperBound(sorted: number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
