import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFile } from 'node:fs/promises';
import { endpoints, type OperationId } from '../../src/api/endpoints.js';
import { cliResponseSchemaOf } from '../../src/api/json-schema.js';
import { Ajv2020, addFormats } from './ajv.js';
import { responseSchemas } from '../../src/api/generated/response-schemas.js';
import { CHECKED_KEYWORDS, checkJson, type JsonSchema } from '../../src/api/check-json.js';
import { createOperations } from '../../src/server/transport/fetch-handler.js';
import { openStore } from '../../src/server/store/open-store.js';
import { fixedClock } from '../../src/server/domain/clock.js';
import { FIXTURE, IDS, KEYS, NOW } from '../server/helpers.js';

/**
 * The CLI checks responses against JSON Schemas generated from the zod table
 * (src/api/generated/response-schemas.ts) with a small interpreter (src/api/check-json.ts), so that
 * no command loads zod. The schemas keep what docs/api-decisions.md states (local vocabularies
 * widened, formats left to the documents); checkJson must judge them exactly as a full
 * JSON Schema validator (ajv, draft 2020-12) does.
 */
const OPS = Object.keys(endpoints) as OperationId[];

/** One real response of every operation, from the real pipeline over the fixture store. */
async function realResponses(): Promise<Record<OperationId, unknown>> {
  const operations = createOperations({ store: await openStore({ memory: JSON.parse(await readFile(FIXTURE, 'utf8')) }), clock: fixedClock(NOW) });
  const headers = { authorization: `Bearer ${KEYS.editorW1}` };
  const calls: Record<OperationId, Parameters<typeof operations.invoke>[1]> = {
    getFinanceSummary: { headers },
    createAdCreative: { headers, body: { name: 'Summer ad', ad_format: 'carousel', destination_url: 'https://acme.example/summer' } },
    createContentListener: { headers, body: { name: 'Dental news', source_type: 'google_news', query_config: { keywords: ['dentist'] } } },
    scheduleSocialPost: { headers, params: { id: IDS.postDraft }, body: { scheduled_at: '2025-07-01T09:30:00Z' } },
    listLearnings: { headers },
    listNurtureSequences: { headers },
    getGbpVisibility: { headers },
    listBrandSubjects: { headers },
    listCrmAgents: { headers },
  };
  const out = {} as Record<OperationId, unknown>;
  for (const op of OPS) {
    const res = await operations.invoke(op, calls[op]);
    expect(res.status, op).toBe(200);
    out[op] = res.body.data;
  }
  return out;
}

function keywordsOf(schema: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const s of schema) keywordsOf(s, into);
  else if (schema && typeof schema === 'object') {
    for (const [k, v] of Object.entries(schema)) {
      into.add(k);
      if (k === 'properties') for (const s of Object.values(v as object)) keywordsOf(s, into);
      else if (k !== 'enum' && k !== 'required') keywordsOf(v, into);
    }
  }
  return into;
}

/** Every path into a JSON value (objects and arrays), the root included. */
function pathsOf(v: unknown, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(at);
  if (Array.isArray(v)) for (const [i, x] of v.entries()) pathsOf(x, [...at, i], out);
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) pathsOf(x, [...at, k], out);
  return out;
}

function replaced(root: unknown, path: (string | number)[], value: unknown, drop: boolean): unknown {
  if (path.length === 0) return value;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const seg of path.slice(0, -1)) node = node[seg] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (drop && !Array.isArray(node)) delete node[last];
  else node[last] = value;
  return copy;
}

describe('response schemas for the CLI', () => {
  it('src/api/generated/response-schemas.ts is what the zod table generates (else: npm run build)', () => {
    for (const op of OPS) expect(responseSchemas[op], op).toEqual(cliResponseSchemaOf(endpoints[op].data));
  });

  it('checkJson understands every keyword the generated schemas use', () => {
    const used = keywordsOf(Object.values(responseSchemas));
    expect([...used].filter((k) => !CHECKED_KEYWORDS.has(k))).toEqual([]);
  });

  it('accepts and rejects exactly what ajv does, over real responses and mutations of them', async () => {
    const real = await realResponses();
    const ajv = new Ajv2020({ strict: true, allErrors: false });
    addFormats(ajv);
    const compiled = new Map(OPS.map((op) => [op, ajv.compile(responseSchemas[op] as object)]));
    const ajvCheck = (op: OperationId, v: unknown): boolean => compiled.get(op)!(v);
    for (const op of OPS) {
      expect(checkJson(responseSchemas[op] as JsonSchema, real[op]), op).toBeUndefined();
      expect(ajvCheck(op, real[op]), op).toBe(true);
      expect(endpoints[op].data.safeParse(real[op]).success, op).toBe(true);
    }
    const values = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 2 }), fc.object({ maxDepth: 1 }), fc.constant(2 ** 60));
    let rejected = 0;
    fc.assert(
      fc.property(fc.constantFrom(...OPS), fc.nat(), values, fc.boolean(), (op, pick, value, drop) => {
        const paths = pathsOf(real[op]);
        const mutated = replaced(real[op], paths[pick % paths.length]!, value, drop);
        const ours = checkJson(responseSchemas[op] as JsonSchema, mutated);
        const theirs = ajvCheck(op, mutated);
        if (!theirs) rejected++;
        expect(ours === undefined, `${op}: ${JSON.stringify(ours)} vs ajv ${theirs}`).toBe(theirs);
      }),
      { numRuns: 3000, seed: 20261123 },
    );
    expect(rejected).toBeGreaterThan(500); // the mutations do break responses, often
  });

  it('widens the local vocabularies and keeps the published ones (docs/api-decisions.md §4–§5 vs docs/api-decisions.md)', () => {
    const ad = responseSchemas.createAdCreative as { properties: Record<string, JsonSchema> };
    expect(ad.properties.platform).toEqual({ type: 'string' });
    expect(ad.properties.status).toEqual({ type: 'string' });
    const listener = responseSchemas.createContentListener as { properties: Record<string, JsonSchema> };
    expect(listener.properties.sourceType!.enum).toContain('rss');
    expect(listener.properties.pollInterval!.enum).toEqual(['1h', '6h', '12h', '24h', '7d']);
  });
});
