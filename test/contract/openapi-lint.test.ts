import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import spectralCore, { type RulesetDefinition } from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import spectralRulesets from '@stoplight/spectral-rulesets';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { ensureBuilt } from '../helpers/cli.js';
import { spawnProcess } from '../helpers/process.js';
import { spawnServe, type ServeProcess } from '../helpers/serve.js';
import type { OpenApiDoc } from './openapi-validator.js';

/**
 * Third-party linters over the document `cr serve` serves (docs/api-decisions.md §10): Redocly CLI
 * with its recommended-strict rules and Spectral with spectral:oas, both with 0 problems.
 * A document broken on purpose shows that each of them does report problems.
 */

const REDOCLY = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');

let srv: ServeProcess;
let doc: OpenApiDoc;
let dir: string;

beforeAll(async () => {
  await ensureBuilt();
  srv = await spawnServe([], { fixture: true });
  const res = await fetch(`${srv.baseUrl}/openapi.json`, { signal: AbortSignal.timeout(10_000) });
  doc = (await res.json()) as OpenApiDoc;
  dir = tempDir('cr-openapi-lint-');
}, 60_000);

afterAll(async () => {
  await srv?.stop();
  cleanupTempDirs();
});

interface Problem {
  rule: string;
  where: string;
  message: string;
}

/**
 * Redocly CLI over several documents in one run (its start-up is most of its time): it prints
 * one JSON report per file, in the order given, one after another.
 */
async function redocly(documents: Record<string, unknown>): Promise<Record<string, Problem[]>> {
  const names = Object.keys(documents);
  const files = names.map((name) => {
    const file = join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(documents[name]));
    return file;
  });
  const run = await spawnProcess(process.execPath, [REDOCLY, 'lint', '--extends=recommended-strict', '--format=json', ...files], {
    cwd: dir,
    env: { HOME: dir, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    timeoutMs: 60_000,
  });
  const reports = String(run.stdout)
    .split(/(?<=^\})(?=\{)/m)
    .map((text) => JSON.parse(text) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string; location: { pointer: string; source: { ref: string } }[] }[] });
  expect(reports).toHaveLength(names.length);
  return Object.fromEntries(
    reports.map((out, i) => {
      expect(out.totals.errors + out.totals.warnings).toBe(out.problems.length);
      for (const p of out.problems) expect(p.location[0]?.source.ref).toBe(`${names[i]}.json`);
      return [names[i]!, out.problems.map((p) => ({ rule: p.ruleId, where: p.location[0]?.pointer ?? '', message: p.message }))];
    }),
  );
}

/** The served document and the broken one, linted by Redocly once for both tests. */
let redoclied: Promise<Record<string, Problem[]>> | undefined;
const redoclyReports = () => (redoclied ??= redocly({ served: doc, broken: broken() }));

async function spectral(document: unknown): Promise<Problem[]> {
  const linter = new spectralCore.Spectral();
  // The rulesets package types against its own copy of spectral-core's types: the same shape.
  linter.setRuleset({ extends: [[spectralRulesets.oas as unknown as RulesetDefinition, 'recommended']] });
  const results = await linter.run(new spectralCore.Document(JSON.stringify(document), spectralParsers.Json, 'openapi.json'));
  return results.map((r) => ({ rule: String(r.code), where: r.path.join('.'), message: r.message }));
}

/** The served document with faults each linter has a rule for. */
function broken(): Record<string, unknown> {
  type Example = { example: { data: Record<string, unknown> } };
  type Doc = {
    info: Record<string, unknown>;
    tags: Record<string, unknown>[];
    components: { schemas: Record<string, unknown> };
    paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, Example> }> }>>;
  };
  const d = structuredClone(doc) as unknown as Doc;
  delete d.info.license;
  delete d.info.contact;
  delete d.tags[0]!.description;
  d.components.schemas.Unused = { type: 'object' };
  d.paths['/content/ads/creatives/create']!.post!.responses['200']!.content['application/json']!.example.data.platform = 'myspace';
  return d;
}

describe('the served OpenAPI document passes third-party linters', () => {
  it('Redocly CLI lint, recommended-strict: 0 problems', async () => {
    expect((await redoclyReports()).served).toEqual([]);
  }, 60_000);

  it('Redocly CLI reports the faults of a broken document', async () => {
    const rules = new Set((await redoclyReports()).broken!.map((p) => p.rule));
    expect(rules).toEqual(new Set(['info-license', 'tag-description', 'no-unused-components', 'no-invalid-media-type-examples']));
  }, 60_000);

  it('Spectral, spectral:oas: 0 problems', async () => {
    expect(await spectral(doc)).toEqual([]);
  });

  it('Spectral reports the faults of a broken document', async () => {
    const rules = new Set((await spectral(broken())).map((p) => p.rule));
    expect(rules).toEqual(new Set(['info-contact', 'oas3-unused-component', 'oas3-valid-media-example']));
  });
});
