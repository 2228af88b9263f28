import { createReadStream, readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, TEST_BIN, runBin } from '../helpers/cli.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { fixtureStore, KEYS, NOW, SITE } from '../helpers/fixture-store.js';
import { startServer, type RunningServer } from '../../src/server/serve.js';
import { fixedClock } from '../../src/server/domain/clock.js';

/**
 * `cr nurture list --all --jsonl` streams (docs/cli-contract.md "For scripts"): a page is written before
 * the next is asked for, so the built CLI's peak memory for 100,000 sequences is about
 * its peak for 10,000. A real process (its own heap, measured by the kernel) against the
 * real local server on 127.0.0.1; `--all --json`, which must hold the whole list, is the
 * control that shows the measure can tell the difference.
 */
const N = 100_000;
let server: RunningServer;
let dir: string;

beforeAll(async () => {
  dir = tempDir('cr-jsonl-');
  const store = fixtureStore();
  const now = Date.parse(NOW);
  store.nurture_sequences = Array.from({ length: N }, (_, i) => ({
    contentId: `seq-${String(i).padStart(6, '0')}`,
    title: `Sequence ${i} of a long list`,
    status: i % 3 === 0 ? 'active' : 'draft',
    createdAt: NOW,
    updatedAt: new Date(now - i * 1000).toISOString(),
    websiteId: SITE,
    steps: [],
  }));
  const storePath = join(dir, 'store.json');
  writeFileSync(storePath, JSON.stringify(store));
  server = await startServer({ storePath, host: '127.0.0.1', port: 0, rateLimit: 1_000_000, log: false, clock: fixedClock(NOW) });
}, 60_000);

afterAll(async () => {
  await server?.close();
  cleanupTempDirs();
});

/** Runs the built CLI with stdout to a file; returns its peak RSS (MB), the line count and the distinct ids. */
async function run(args: string[]) {
  const out = join(dir, `out-${args.join('_').replace(/\W+/g, '')}.txt`);
  const rssFile = join(dir, 'rss.txt');
  const r = await runBin(['nurture', 'list', '--all', ...args], {
    nodeArgs: ['--require', join(ROOT, 'test/e2e/fixtures/max-rss.cjs')],
    configDir: dir,
    env: { CR_API_KEY: KEYS.editor, CR_BASE_URL: `${server.url}/api/v1`, CR_TEST_MAX_RSS_FILE: rssFile },
    execa: { stdout: { file: out } },
    timeoutMs: 120_000,
  });
  expect(r.exitCode, r.stderr).toBe(0);
  return { rssMb: Number(readFileSync(rssFile, 'utf8')) / 1024, out };
}

async function jsonlIds(file: string): Promise<{ lines: number; ids: Set<string> }> {
  const ids = new Set<string>();
  let lines = 0;
  for await (const line of createInterface({ input: createReadStream(file) })) {
    lines++;
    ids.add((JSON.parse(line) as { contentId: string }).contentId);
  }
  return { lines, ids };
}

// Measures through a node --require hook: only with node bin/cr.js (test/helpers/cli.ts TEST_BIN).
describe.skipIf(TEST_BIN !== undefined)('--all --jsonl in flat memory', () => {
  it('100,000 sequences cost about the memory of 10,000; --all --json (the control) does not', async () => {
    const small = await run(['--jsonl', '--offset', String(N - 10_000)]);
    const big = await run(['--jsonl']);
    const control = await run(['--json']);
    const got = await jsonlIds(big.out);
    expect(got.lines).toBe(N);
    expect(got.ids.size).toBe(N);
    expect((await jsonlIds(small.out)).lines).toBe(10_000);
    // Measured: ~65 MB for 10,000 and ~80 MB for 100,000 (the heap's headroom, not the list);
    // the control, which holds all 100,000, ~180 MB.
    expect(big.rssMb - small.rssMb, `10k: ${small.rssMb} MB, 100k: ${big.rssMb} MB`).toBeLessThan(35);
    expect(control.rssMb - big.rssMb, `--json: ${control.rssMb} MB, --jsonl: ${big.rssMb} MB`).toBeGreaterThan(50);
  }, 300_000);
});
