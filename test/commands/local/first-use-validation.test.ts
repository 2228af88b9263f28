import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs, tempDir } from '../../helpers/tmp.js';
import { Store } from '../../../src/server/store/store.js';
import { headerLine, journalPathOf, snapshotId } from '../../../src/server/store/journal.js';

// The JSON store file only, not the `commands-pg` pass (vitest.config.ts): --local works on store files only (docs/shared-sandbox.md).

/**
 * --local validates the store's records one collection at a time, the first time its command
 * uses it (docs/store-format.md "Rules"), so that a command loads only the schemas it reads
 * (test/e2e/module-loads.test.ts). A bad record still ends a command that uses its collection
 * exactly as opening the store whole would have ended it: exit 78, STORE_INVALID, the same
 * message. A command that writes validates every collection first, and an invalid file is never
 * rewritten. The store-level side: test/server/store-first-use.test.ts.
 */
afterAll(() => cleanupTempDirs());

type Doc = Record<string, Record<string, unknown>[]>;

/**
 * A home whose --local store was made by a first run (demo data), then edited as docs/store-format.md
 * says (seal line removed). With `journalNamesIt` the journal is made to name the edited file, as
 * if cr had written it last (a file that went bad since): only such a file is validated one
 * collection at a time; one edited by hand is validated whole first (the last test).
 */
async function editedStore(edit: (doc: Doc) => void, journalNamesIt = true) {
  const home = tempDir('cr-first-use-');
  const env = { HOME: home, CR_STORE: join(home, 'store.json') };
  const made = await runCli(['finance', 'summary', '--local', '--json'], { configDir: home, env });
  expect(made.exitCode, made.stderr).toBe(0);
  const { checksum: _seal, ...doc } = JSON.parse(readFileSync(env.CR_STORE, 'utf8')) as Doc & { checksum?: string };
  edit(doc as Doc);
  const text = JSON.stringify(doc, null, 2);
  writeFileSync(env.CR_STORE, text);
  if (journalNamesIt) writeFileSync(journalPathOf(env.CR_STORE), headerLine(snapshotId(Buffer.from(text))));
  // What opening the file whole says (what `cr serve` says at start): the message every refusal below must give.
  const refused = await Store.open(env.CR_STORE).catch((e: unknown) => e as Error);
  expect(refused).toBeInstanceOf(Error);
  const cr = (args: string[]) => runCli([...args, '--local'], { configDir: home, env });
  return { home, env, cr, message: (refused as Error).message, path: env.CR_STORE };
}

describe('--local: records validated when a command first uses their collection', () => {
  it('a bad record in a collection the command reads: exit 78, STORE_INVALID, the message opening the store gives; nothing printed on stdout', async () => {
    const s = await editedStore((d) => (d.business_entities![1]!.owner_id = 7));
    expect(s.message).toContain(`${s.path}: business_entities[1].owner_id: expected string, got number`);
    const r = await s.cr(['finance', 'summary', '--json']);
    expect(r.exitCode, r.stderr).toBe(78);
    expect(r.stderr).toContain(s.message);
    expect(r.stderr).toContain('STORE_INVALID');
    expect(r.stdout).toBe('');
  });

  it('a bad record in a collection the command does not use: the command answers; the first command that uses it is refused alike, and so is any write', async () => {
    const s = await editedStore((d) => (d.crm_agents![0]!.name = 7));
    expect(s.message).toContain(`${s.path}: crm_agents[0].name: expected string, got number`);
    const before = readFileSync(s.path);

    const summary = await s.cr(['finance', 'summary', '--json']);
    expect(summary.exitCode, summary.stderr).toBe(0);
    expect(JSON.parse(summary.stdout)).toHaveProperty('summaries');

    const agents = await s.cr(['crm', 'agents', '--json']);
    expect(agents.exitCode, agents.stderr).toBe(78);
    expect(agents.stderr).toContain(s.message);
    expect(agents.stdout).toBe('');

    // A write to a valid collection validates every collection first: refused, nothing written.
    const created = await s.cr(['ads', 'create', '--format', 'single_image', '--name', 'Spring', '--url', 'https://acme.example/']);
    expect(created.exitCode, created.stderr).toBe(78);
    expect(created.stderr).toContain(s.message);
    expect(readFileSync(s.path).equals(before)).toBe(true);

    // A bulk run meets it at its first row: the run ends there, as at open; no row is its own failure.
    const posts = (JSON.parse(before.toString('utf8')) as Doc).social_posts!.filter((p) => p.status === 'draft').slice(0, 3);
    expect(posts.length).toBe(3);
    const plan = join(s.home, 'plan.csv');
    writeFileSync(plan, `id,at\n${posts.map((p) => `${p.id},2031-01-0${posts.indexOf(p) + 1}T10:00:00Z`).join('\n')}\n`);
    const bulk = await s.cr(['posts', 'schedule', '--from', plan, '--state', join(s.home, 'state.json')]);
    expect(bulk.exitCode, bulk.stderr).toBe(78);
    expect(bulk.stderr).toContain(s.message);
    expect(bulk.stderr).not.toContain('ROWS_FAILED');
    expect(bulk.stdout.split(s.message).length).toBeLessThanOrEqual(2);
    expect(readFileSync(s.path).equals(before)).toBe(true);
  });

  it('a store edited by hand (its journal names the file before the edit): validated whole when --local opens it, whatever the command reads; nothing written beside it', async () => {
    const s = await editedStore((d) => (d.crm_agents![0]!.name = 7), false);
    const journal = readFileSync(journalPathOf(s.path));
    const r = await s.cr(['finance', 'summary', '--json']);
    expect(r.exitCode, r.stderr).toBe(78);
    expect(r.stderr).toContain(s.message);
    expect(r.stdout).toBe('');
    expect(readFileSync(journalPathOf(s.path))).toEqual(journal);
  });
});
