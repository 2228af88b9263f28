import { cpSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REGENERATE, generatedFiles } from '../../src/api/generated-files.js';
import { endpoints } from '../../src/api/endpoints.js';
import { routes } from '../../src/api/routes.js';
import { requestSchemas } from '../../src/api/generated/request-schemas.js';
import { ROOT } from '../architecture/imports.js';
import { tempDir, cleanupTempDirs } from '../helpers/tmp.js';
import { spawnProcess } from '../helpers/process.js';

/**
 * The endpoint table (src/api/endpoints.ts) is the one place an endpoint is written; what the
 * CLI reads without zod is generated from it (src/api/generated/, CONTRIBUTING.md "Adding an
 * endpoint"). A generated file that differs from what the table makes is a failure naming the
 * command that rewrites it.
 */
afterAll(() => cleanupTempDirs());

describe('files generated from the endpoint table', () => {
  for (const { path, text } of generatedFiles()) {
    it(`${path} is what the table generates (else: ${REGENERATE})`, () => {
      const onDisk = readFileSync(join(ROOT, path), 'utf8');
      expect(onDisk === text, `${path} is stale: run \`${REGENERATE}\``).toBe(true);
    });
  }

  it('the generated routes carry every HTTP fact of the table, and nothing of zod', () => {
    expect(Object.keys(routes)).toEqual(Object.keys(endpoints));
    for (const [op, ep] of Object.entries(endpoints)) {
      const { params: _p, query: _q, body: _b, data: _d, ...facts } = ep;
      expect(routes[op as keyof typeof routes], op).toEqual(facts);
    }
  });

  it('the request schemas carry the enums and bounds of the zod schemas', () => {
    expect(requestSchemas.listNurtureSequences.query.properties.status.enum).toEqual(endpoints.listNurtureSequences.query.shape.status.unwrap().options);
    expect(requestSchemas.listLearnings.query.properties.limit.maximum).toBe(200);
    expect(endpoints.listLearnings.query.safeParse({ limit: 201 }).success).toBe(false);
    expect(requestSchemas.createContentListener.body.properties.poll_interval.enum).toEqual(['1h', '6h', '12h', '24h', '7d']);
  });

  it('`gen-api.mjs --check` fails on a stale file, naming the command; without --check it rewrites the file', async () => {
    // A copy of the parts the generator reads, so the repository's own files are never touched.
    const dir = tempDir('cr-gen-');
    for (const part of ['src', 'scripts', 'package.json']) cpSync(join(ROOT, part), join(dir, part), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    const run = async (args: string[]) => await spawnProcess(process.execPath, ['scripts/gen-api.mjs', ...args], { cwd: dir, timeoutMs: 60_000 });
    expect((await run(['--check'])).exitCode).toBe(0);
    const file = join(dir, 'src/api/generated/routes.ts');
    const fresh = readFileSync(file, 'utf8');
    writeFileSync(file, fresh.replace('"/finance/summary"', '"/finance/sum"'));
    const stale = await run(['--check']);
    expect(stale.exitCode).toBe(1);
    expect(stale.stderr).toContain(`src/api/generated/routes.ts differs from what the endpoint table (src/api/endpoints.ts) generates: run \`${REGENERATE}\``);
    expect((await run([])).exitCode).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(fresh);
  });
});
