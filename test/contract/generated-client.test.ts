import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { ROOT, ensureBuilt } from '../helpers/cli.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { spawnProcess } from '../helpers/process.js';
import { spawnServe, type ServeProcess } from '../helpers/serve.js';
import { IDS, KEYS } from '../server/helpers.js';

/**
 * docs/api-decisions.md §10: a client generated from the served document is usable without guessing.
 * openapi-typescript turns GET /api/v1/openapi.json into types; a small openapi-fetch program
 * (fixtures/generated-client.mts) that imports named schemas is type-checked under strict
 * settings, its deliberate type errors must be the only ones expected, and it then calls all
 * nine operations of the real `cr serve`.
 */

const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

let srv: ServeProcess;
let dir: string;

beforeAll(async () => {
  await ensureBuilt();
  srv = await spawnServe([], { fixture: true });
  dir = tempDir('cr-generated-client-');
  const ast = await openapiTS(new URL(`${srv.baseUrl}/openapi.json`));
  writeFileSync(join(dir, 'api.ts'), astToString(ast));
  copyFileSync(join(ROOT, 'test', 'contract', 'fixtures', 'generated-client.mts'), join(dir, 'generated-client.mts'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  const compilerOptions = {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2023', 'DOM'],
    types: ['node'],
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    noImplicitReturns: true,
    noUnusedLocals: true,
    skipLibCheck: true,
    outDir: 'out',
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['api.ts', 'generated-client.mts'] }));
}, 60_000);

afterAll(async () => {
  await srv?.stop();
  cleanupTempDirs();
});

describe('a client generated from the served document (openapi-typescript + openapi-fetch)', () => {
  it('type-checks under strict settings', async () => {
    const tsc = await spawnProcess(process.execPath, [TSC, '-p', join(dir, 'tsconfig.json')], { cwd: dir, env: { HOME: dir }, timeoutMs: 120_000 });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.exitCode).toBe(0);
  }, 120_000);

  it('calls all nine operations of the local server and reads typed data', async () => {
    const run = await spawnProcess(process.execPath, [join(dir, 'out', 'generated-client.mjs'), `${srv.baseUrl}/openapi.json`, KEYS.editorW1, IDS.postDraft], { cwd: dir, env: { HOME: dir } });
    expect(run.stderr).toBe('');
    const out = JSON.parse(run.stdout) as Record<string, { status: number; value?: Record<string, unknown>; code?: string; paths?: string[] }>;
    const ops = [
      'getFinanceSummary',
      'createAdCreative',
      'createContentListener',
      'scheduleSocialPost',
      'listLearnings',
      'listNurtureSequences',
      'getGbpVisibility',
      'listBrandSubjects',
      'listCrmAgents',
    ];
    for (const op of ops) expect(out[op]?.status, op).toBe(200);
    expect(out.createAdCreative!.value).toEqual({ platform: 'google', status: 'draft', createdAt: expect.stringMatching(/^2025-06-15T12:00:00/) });
    expect(out.createContentListener!.value).toEqual({ source: 'rss', interval: '6h', lastPolledAt: null });
    expect(out.createContentListenerReddit!.status).toBe(200);
    expect(out.createContentListenerInvalid).toEqual({ status: 400, code: 'BAD_REQUEST', paths: ['query_config'] });
    expect(out.scheduleSocialPost!.value).toEqual({ status: 'scheduled', scheduledAt: '2025-07-01T09:30:00Z' });
    expect(out.listLearnings!.value!.dimensions).toEqual(['hook']);
    expect(out.listNurtureSequences!.value).toMatchObject({ limit: 2, statuses: ['active'] });
    expect(out.getGbpVisibility!.value).toMatchObject({ points: 81 });
    expect(out.listCrmAgents!.value!.longestPrompt as number).toBeLessThanOrEqual(200);
  }, 60_000);
});
