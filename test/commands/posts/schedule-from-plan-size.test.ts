import { afterAll, describe, expect, it } from 'vitest';
import { openSync, closeSync, ftruncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { cleanupTempDirs, tempDir } from '../../helpers/tmp.js';
import { runCli } from '../../helpers/run-cli.js';
import { AT, cliEnv, crAt, postId } from '../../bulk/support.js';

/**
 * Plans too big to echo or to read (docs/reliability.md "Bulk plans: size cap and cut echoes"):
 * a bad value is quoted cut to 200 characters with its length named, and a plan over 64 MiB
 * is refused before it is read further. The plan is checked before any request, so the base
 * URL is a port nothing listens on: a request would show as a network error, not exit 2.
 */
afterAll(() => cleanupTempDirs());

const NOWHERE = 'http://127.0.0.1:9/api/v1';
const BIG = 10_000_000;

describe('posts schedule --from: plan size and echoed values', () => {
  it('a 10 MB id, at and website_id are each echoed as 200 characters and their length; exit 2', async () => {
    const dir = tempDir('cr-plan-');
    const file = join(dir, 'plan.csv');
    const huge = (c: string) => c.repeat(BIG);
    writeFileSync(file, `id,at,website_id\n${huge('a')},${AT},\n${postId(1)},${huge('2')},\n${postId(2)},${AT},${huge('f')}\n`);
    const r = await crAt(NOWHERE, ['posts', 'schedule', '--from', file]);
    expect(r.exitCode).toBe(2);
    const cut = (c: string) => `"${c.repeat(200)}…" (10,000,000 characters)`;
    expect(r.stderr).toContain(`${file}:2: id ${cut('a')} is not a uuid\n`);
    expect(r.stderr).toContain(`${file}:3: at must be an ISO 8601 date-time (2026-12-01T09:00:00Z) or +30m, +2h, +1d; got ${cut('2')}\n`);
    expect(r.stderr).toContain(`${file}:4: website_id ${cut('f')} is not a uuid\n`);
    expect(r.stderr.length).toBeLessThan(2_000);
  });

  it('JSON Lines: an unknown field named by a 10 MB key is cut the same way', async () => {
    const dir = tempDir('cr-plan-');
    const file = join(dir, 'plan.jsonl');
    writeFileSync(file, `${JSON.stringify({ id: postId(1), at: AT, ['k'.repeat(BIG)]: 1 })}\n`);
    const r = await crAt(NOWHERE, ['posts', 'schedule', '--from', file]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${file}:1: unknown field "${'k'.repeat(200)}…" (10,000,000 characters)\n`);
    expect(r.stderr.length).toBeLessThan(1_000);
  });

  it('a plan file over 64 MiB is refused before it is read (a sparse file: no disk, no memory)', async () => {
    const file = join(tempDir('cr-plan-'), 'plan.csv');
    const fd = openSync(file, 'w');
    ftruncateSync(fd, 64 * 1024 * 1024 + 1);
    closeSync(fd);
    const r = await crAt(NOWHERE, ['posts', 'schedule', '--from', file]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(`error: ${file} is larger than 64 MiB, the most a plan may be; nothing was sent; split it into smaller plans (USAGE)\n`);
  });

  it('standard input over 64 MiB is refused once it passes the cap, and not read further', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let pulled = 0;
    // 80 MiB on offer, one reused 1 MiB buffer: the cap, not the input, bounds what is held.
    const input = Readable.from(
      (function* () {
        for (; pulled < 80; pulled++) yield chunk;
      })(),
    );
    const r = await runCli(['posts', 'schedule', '--from', '-'], { env: cliEnv(NOWHERE), input });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe('error: <stdin> is larger than 64 MiB, the most a plan may be; nothing was sent; split it into smaller plans (USAGE)\n');
    expect(pulled).toBeLessThan(70);
  });
});
