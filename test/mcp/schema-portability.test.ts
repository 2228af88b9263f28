import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SOURCE_TYPES } from '../../src/api/listener-rules.js';
import { cleanupTempDirs } from '../helpers/tmp.js';
import { Ajv2020, addFormats } from '../contract/ajv.js';
import { ensureBuilt } from '../helpers/cli.js';
import { spawnServe, type ServeProcess } from '../helpers/serve.js';
import { KEYS } from '../server/helpers.js';
import { routes } from '../../src/api/routes.js';

/**
 * The portability checks the MCP inspector's strict mode makes on tool schemas, written as a
 * test (the inspector package is too heavy to install for this): no `additionalProperties: {}`,
 * no `type` arrays (with null or not), no `$ref`s an agent would have to follow, no top-level
 * union, and every property typed. Over the tools the real `cr serve` lists.
 */

type Schema = { [keyword: string]: unknown };

/** Every portability problem of a tool schema, as `path: problem`. */
function portabilityProblems(schema: unknown, path = '#'): string[] {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return [];
  const s = schema as Schema;
  const problems: string[] = [];
  if (Array.isArray(s.type)) problems.push(`${path}: type array ${JSON.stringify(s.type)}`);
  if (s.additionalProperties && typeof s.additionalProperties === 'object' && Object.keys(s.additionalProperties).length === 0) {
    problems.push(`${path}: additionalProperties {}`);
  }
  if ('$ref' in s || '$defs' in s) problems.push(`${path}: $ref/$defs`);
  for (const [name, prop] of Object.entries((s.properties ?? {}) as Record<string, unknown>)) {
    if (!isTyped(prop)) problems.push(`${path}/properties/${name}: untyped`);
    problems.push(...portabilityProblems(prop, `${path}/properties/${name}`));
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    for (const [i, alt] of ((s[key] ?? []) as unknown[]).entries()) problems.push(...portabilityProblems(alt, `${path}/${key}/${i}`));
  }
  if (s.items) problems.push(...portabilityProblems(s.items, `${path}/items`));
  if (s.additionalProperties && typeof s.additionalProperties === 'object') problems.push(...portabilityProblems(s.additionalProperties, `${path}/additionalProperties`));
  return problems;
}

/** A property says what it holds: a type, a fixed value, or alternatives that are all typed. */
function isTyped(schema: unknown): boolean {
  if (!schema || typeof schema !== 'object') return false;
  const s = schema as Schema;
  if (typeof s.type === 'string' || 'const' in s || Array.isArray(s.enum)) return true;
  const alternatives = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  return Array.isArray(alternatives) && alternatives.length > 0 && alternatives.every(isTyped);
}

let srv: ServeProcess;
let tools: { name: string; inputSchema: Schema; outputSchema?: Schema }[];

beforeAll(async () => {
  await ensureBuilt();
  srv = await spawnServe([], { fixture: true });
  const client = new Client({ name: 'cr-portability', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${srv.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${KEYS.viewerW1}` } } }));
  tools = (await client.listTools(undefined, { timeout: 10_000 })).tools as typeof tools;
  await client.close();
}, 60_000);

afterAll(async () => {
  await srv?.stop();
  cleanupTempDirs();
});

describe('MCP tool schemas are portable', () => {
  it('the checks catch the forms they are about', () => {
    const old = { type: 'object', properties: { a: { type: ['string', 'null'] }, m: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: {} }, u: {} } };
    expect(portabilityProblems(old)).toEqual(['#/properties/a: untyped', '#/properties/a: type array ["string","null"]', '#/properties/m: additionalProperties {}', '#/properties/u: untyped']);
  });

  it('input and output schemas of every tool pass them', () => {
    expect(tools).toHaveLength(Object.keys(routes).length);
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object');
      for (const union of ['anyOf', 'oneOf', 'allOf']) expect(tool.inputSchema[union], `${tool.name} top-level ${union}`).toBeUndefined();
      expect(portabilityProblems(tool.inputSchema), `${tool.name} input`).toEqual([]);
      expect(portabilityProblems(tool.outputSchema), `${tool.name} output`).toEqual([]);
    }
  });

  it('createContentListener offers the query_config shape of every source', () => {
    const input = tools.find((t) => t.name === 'createContentListener')!.inputSchema as { properties: Record<string, Schema>; required: string[] };
    expect(input.required).toEqual(expect.arrayContaining(['name', 'source_type', 'query_config']));
    expect(input.properties.source_type!.enum).toEqual([...SOURCE_TYPES]);
    const shapes = input.properties.query_config!.anyOf as Schema[];
    expect(shapes).toHaveLength(SOURCE_TYPES.length);
    expect(shapes.map((s) => /query_config of an? (\w+) listener/.exec(String(s.description))?.[1])).toEqual([...SOURCE_TYPES]);
    const rss = shapes.find((s) => String(s.description).includes('rss listener'))!;
    expect(rss.required).toEqual(['feed_url']);
    expect((rss.properties as Record<string, Schema>).feed_url).toMatchObject({ type: 'string', pattern: '^https?://' });

    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    const validate = ajv.compile(input);
    expect(validate({ name: 'Feed', source_type: 'rss', query_config: { feed_url: 'https://news.example/feed.xml' } })).toBe(true);
    expect(validate({ name: 'Sub', source_type: 'reddit', query_config: { keywords: ['dentist'] } })).toBe(true);
    expect(validate({ name: 'Feed', source_type: 'rss', query_config: {} })).toBe(false);
    expect(validate({ name: 'Feed', source_type: 'rss', query_config: { feed_url: 'ftp://files.example/feed' } })).toBe(false);
  });
});
