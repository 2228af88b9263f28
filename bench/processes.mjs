import { spawnSync } from 'node:child_process';
import { summarize } from './stats.mjs';

/**
 * Wall time of a whole process, in ms, over `runs` runs after `warmup` runs:
 * median, min and max. Every command in one table is measured in the same run so that
 * ratios compare like with like on a noisy shared machine.
 */
export function timeProcess(cmd, args, { runs = 15, warmup = 3, env = process.env } = {}) {
  const samples = [];
  for (let i = 0; i < warmup + runs; i++) {
    const start = process.hrtime.bigint();
    const res = spawnSync(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (res.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${res.status}: ${res.stderr}`);
    if (i >= warmup) samples.push(ms);
  }
  return summarize(samples);
}
