/**
 * Reads a V8 .cpuprofile (node --cpu-prof) and returns where the time went: self time per
 * function and per file, as shares of the non-idle samples.
 *   node bench/profile.mjs some.cpuprofile   prints the summary
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;

const shortUrl = (url) => {
  if (!url) return '';
  let p = url.replace(/^file:\/\//, '');
  if (p.startsWith(ROOT)) p = relative(ROOT, p);
  p = p.replace(/^.*node_modules\//, 'node_modules/');
  return p;
};

export function summarizeProfile(file, { top = 12 } = {}) {
  const prof = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const self = new Map();
  for (let i = 0; i < prof.samples.length; i++) {
    const dt = prof.timeDeltas[i] ?? 0;
    self.set(prof.samples[i], (self.get(prof.samples[i]) ?? 0) + dt);
  }
  const fn = new Map();
  const files = new Map();
  let total = 0;
  let idle = 0;
  for (const [id, us] of self) {
    const n = byId.get(id);
    const cf = n.callFrame;
    const name = cf.functionName || '(anonymous)';
    if (name === '(idle)') {
      idle += us;
      continue;
    }
    total += us;
    const url = shortUrl(cf.url);
    const key = url ? `${name} (${url}:${cf.lineNumber + 1})` : name;
    fn.set(key, (fn.get(key) ?? 0) + us);
    const fk = url || name;
    files.set(fk, (files.get(fk) ?? 0) + us);
  }
  const rank = (m) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, ms: us / 1000, pct: total ? (us / total) * 100 : 0 }));
  return { busyMs: total / 1000, idleMs: idle / 1000, functions: rank(fn), files: rank(files) };
}

/** The newest .cpuprofile in a folder. */
export function profileIn(dir) {
  const f = readdirSync(dir)
    .filter((x) => x.endsWith('.cpuprofile'))
    .sort();
  return f.length ? join(dir, f[f.length - 1]) : null;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop())) {
  const s = summarizeProfile(process.argv[2]);
  console.log(`busy ${s.busyMs.toFixed(0)} ms, idle ${s.idleMs.toFixed(0)} ms`);
  for (const f of s.functions) console.log(`${f.pct.toFixed(1).padStart(5)}%  ${f.ms.toFixed(1).padStart(8)} ms  ${f.name}`);
  console.log('-- by file');
  for (const f of s.files) console.log(`${f.pct.toFixed(1).padStart(5)}%  ${f.ms.toFixed(1).padStart(8)} ms  ${f.name}`);
}
