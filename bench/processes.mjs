import { spawnSync } from 'node:child_process';
import { summarize } from './stats.mjs';

function once(cmd, args, env) {
  const start = process.hrtime.bigint();
  const res = spawnSync(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (res.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${res.status ?? res.signal}: ${res.stderr}`);
  return { ms, stdout: res.stdout };
}

/**
 * Wall time of a whole process, in ms, over `runs` runs after `warmup` runs:
 * median, min and max.
 */
export function timeProcess(cmd, args, { runs = 15, warmup = 3, env = process.env } = {}) {
  const samples = [];
  for (let i = 0; i < warmup + runs; i++) {
    const { ms } = once(cmd, args, env);
    if (i >= warmup) samples.push(ms);
  }
  return summarize(samples);
}

/**
 * Several commands timed round-robin (command 1, 2, 3, 1, 2, 3…) so that drift on a noisy
 * shared machine hits them all alike and their ratios compare like with like.
 * @param {{name:string, cmd:string, args:string[], env?:object}[]} cmds
 * @returns {Record<string, {median:number,min:number,max:number,n:number}>}
 */
export function timeInterleaved(cmds, { runs = 15, warmup = 3 } = {}) {
  const samples = Object.fromEntries(cmds.map((c) => [c.name, []]));
  for (let i = 0; i < warmup + runs; i++) {
    for (const c of cmds) {
      const { ms } = once(c.cmd, c.args, c.env ?? process.env);
      if (i >= warmup) samples[c.name].push(ms);
    }
  }
  return Object.fromEntries(cmds.map((c) => [c.name, summarize(samples[c.name])]));
}

/** Runs a command once and returns its standard output (for checking what is being timed). */
export function outputOf(cmd, args, env = process.env) {
  return once(cmd, args, env).stdout.toString('utf8');
}
