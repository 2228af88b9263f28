import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import SwaggerParser from '@apidevtools/swagger-parser';
// openapi-types is swagger-parser's peer dependency: the document type its validate() takes.
import type { OpenAPI } from 'openapi-types';
import type { z } from 'zod';
import { endpointList } from '../../src/api/endpoints.js';
import { buildOpenApiDocument, defaultsAsText } from '../../src/server/app/openapi.js';
import { jsonSchemaOf, jsonSchemaWithRefs } from '../../src/api/json-schema.js';
import { cleanupTempDirs } from '../helpers/tmp.js';
import { ensureBuilt } from '../helpers/cli.js';
import { spawnServe, type ServeProcess } from '../helpers/serve.js';
import { request } from '../server/helpers.js';
import { HTTP_METHODS, ResponseValidator, type OpenApiDoc } from './openapi-validator.js';

/** GET /api/v1/openapi.json of the real `cr serve` (docs/api-decisions.md §8). */

let srv: ServeProcess;
let doc: OpenApiDoc;
let rawText: string;

beforeAll(async () => {
  await ensureBuilt();
  srv = await spawnServe([], { fixture: true });
  const res = await fetch(`${srv.baseUrl}/openapi.json`, { signal: AbortSignal.timeout(10_000) }); // no Authorization
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  rawText = await res.text();
  doc = JSON.parse(rawText) as OpenApiDoc;
}, 120_000);

afterAll(async () => {
  await srv?.stop();
  cleanupTempDirs();
});

/** A JSON Schema node as these tests read it. */
interface Node {
  [keyword: string]: unknown;
  properties: Record<string, Node>;
  items: Node;
  anyOf: Node[];
  oneOf: Node[];
  enum?: unknown[];
  required?: string[];
  description?: string;
  discriminator: { propertyName: string; mapping: Record<string, string> };
}
const schemasOf = (d: OpenApiDoc) => d.components.schemas as Record<string, Node>;

const shapeKeys = (schema: unknown) => Object.keys((schema as { shape?: Record<string, unknown> } | undefined)?.shape ?? {});

describe('OpenAPI document', () => {
  it('is served without auth, and the Host/Origin check still applies to it', async () => {
    expect(doc.openapi).toBeDefined();
    const port = new URL(srv.origin).port;
    const evil = await request(srv.origin, 'GET', '/api/v1/openapi.json', { headers: { host: `evil.example:${port}` } });
    expect(evil.status).toBe(403);
    expect(evil.json).toEqual({ success: false, error: 'Forbidden host or origin', code: 'FORBIDDEN' });
    const evilOrigin = await request(srv.origin, 'GET', '/api/v1/openapi.json', { headers: { origin: 'http://evil.example' } });
    expect(evilOrigin.status).toBe(403);
  });

  it('validates with swagger-parser with zero errors', async () => {
    const api = await SwaggerParser.validate(structuredClone(doc) as OpenAPI.Document);
    expect((api as { openapi: string }).openapi).toBe(doc.openapi);
  });

  it('swagger-parser does reject a broken document (the validation above is not vacuous)', async () => {
    const broken = structuredClone(doc) as any;
    const first = Object.values(broken.paths)[0] as Record<string, any>;
    const op = Object.values(first)[0];
    delete op.responses;
    op.parameters = [{ name: 'x', in: 'nowhere' }];
    await expect(SwaggerParser.validate(broken)).rejects.toThrow();
  });

  it('is OpenAPI 3.1 with info.version 1.0.0 and the bearer security scheme', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.info.title).toEqual(expect.any(String));
    const schemes = Object.entries(doc.components.securitySchemes);
    const bearer = schemes.find(([, s]) => s.type === 'http' && String(s.scheme).toLowerCase() === 'bearer');
    expect(bearer, 'an http bearer security scheme').toBeDefined();
    expect(doc.security).toEqual([{ [bearer![0]]: [] }]);
  });

  it('has exactly one operation per endpoint-table entry, with its method, path, operationId and tag', () => {
    const ops: { path: string; method: string; operationId: string; tags: string[] }[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) if (HTTP_METHODS.includes(method)) ops.push({ path, method, operationId: op.operationId, tags: op.tags });
    }
    expect(ops).toHaveLength(endpointList.length);
    expect(ops.length).toBe(endpointList.length);
    expect(new Set(ops.map((o) => o.operationId)).size).toBe(ops.length);
    for (const ep of endpointList) {
      const op = doc.paths[ep.path]?.[ep.method.toLowerCase()];
      expect(op, `${ep.method} ${ep.path}`).toBeDefined();
      expect(op!.operationId).toBe(ep.operationId);
      expect(op!.tags).toEqual([ep.tag]);
      const bearerName = Object.keys(doc.components.securitySchemes)[0]!;
      expect(op!.security).toEqual([{ [bearerName]: [] }]);
    }
    // No operation outside the table.
    const tableKeys = new Set(endpointList.map((e) => `${e.method.toLowerCase()} ${e.path}`));
    for (const o of ops) expect(tableKeys.has(`${o.method} ${o.path}`), `${o.method} ${o.path}`).toBe(true);
    // Every tag used is declared.
    expect(new Set((doc.tags ?? []).map((t) => t.name))).toEqual(new Set(endpointList.map((e) => e.tag)));
  });

  it('parameters, request bodies and success data come from the same zod schemas as the table', () => {
    for (const ep of endpointList) {
      const op = doc.paths[ep.path]![ep.method.toLowerCase()]!;
      const params = op.parameters ?? [];
      expect(
        params
          .filter((p) => p.in === 'path')
          .map((p) => p.name)
          .sort(),
        ep.operationId,
      ).toEqual(shapeKeys(ep.params).sort());
      expect(params.filter((p) => p.in === 'path').every((p) => p.required === true)).toBe(true);
      expect(
        params
          .filter((p) => p.in === 'query')
          .map((p) => p.name)
          .sort(),
        ep.operationId,
      ).toEqual(shapeKeys(ep.query).sort());
      for (const p of params) {
        const source = (p.in === 'path' ? ep.params : ep.query) as unknown as { shape: Record<string, z.ZodType> };
        const { description: _desc, ...expected } = jsonSchemaOf(source.shape[p.name]!, 'input');
        expect(p.schema, `${ep.operationId} ${p.name}`).toEqual(expected);
      }
      // Named schemas are components, referenced by the operations, and come out as the table makes them.
      const components: Record<string, Record<string, unknown>> = {};
      if (ep.body) {
        const schema = op.requestBody!.content['application/json']!.schema;
        const requestSide: Record<string, Record<string, unknown>> = {};
        expect(schema).toEqual(jsonSchemaWithRefs(ep.body, 'input', requestSide));
        // Request-side components state their defaults in words (see defaultsAsText).
        for (const [id, def] of Object.entries(requestSide)) components[id] = defaultsAsText(def);
        expect(schema.$ref, ep.operationId).toMatch(/^#\/components\/schemas\/\w+Request$/);
      } else {
        expect(op.requestBody, ep.operationId).toBeUndefined();
      }
      const ok = op.responses['200']!.content!['application/json']!.schema as Node;
      expect(ok.required).toEqual(['success', 'data']);
      expect(ok.properties.data).toEqual(jsonSchemaWithRefs(ep.data, 'output', components));
      for (const [id, schema] of Object.entries(components)) expect(doc.components.schemas[id], id).toEqual(schema);
    }
  });

  it('documents the error statuses of docs/api-decisions.md §1 per operation', () => {
    for (const ep of endpointList) {
      const statuses = Object.keys(doc.paths[ep.path]![ep.method.toLowerCase()]!.responses);
      const hasInput = Boolean(ep.params || ep.query || ep.body);
      expect(statuses, ep.operationId).toEqual(expect.arrayContaining(['200', '401', '403', '429', '500']));
      expect(statuses.includes('400'), ep.operationId).toBe(hasInput);
      expect(statuses.includes('413'), ep.operationId).toBe(ep.method === 'POST');
      expect(statuses.includes('404'), ep.operationId).toBe(ep.operationId === 'scheduleSocialPost');
      expect(statuses.includes('409'), ep.operationId).toBe(ep.operationId === 'scheduleSocialPost');
      const tooMany = doc.paths[ep.path]![ep.method.toLowerCase()]!.responses['429']!;
      expect(Object.keys(tooMany.headers ?? {})).toContain('Retry-After');
    }
  });

  it('is exactly what buildOpenApiDocument generates from the table, with the absolute base URL it was read from', async () => {
    expect(doc.servers).toEqual([{ url: srv.baseUrl, description: expect.any(String) }]);
    expect(srv.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    expect(doc).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument(srv.baseUrl))));
    expect(rawText).not.toMatch(/Minimum role: (viewer|editor)\. Minimum role/);
    // Another accepted Host name gives that name back (docs/api-decisions.md §10: the URL the request came in on).
    const port = new URL(srv.origin).port;
    const viaLocalhost = await request(srv.origin, 'GET', '/api/v1/openapi.json', { headers: { host: `localhost:${port}` } });
    expect(viaLocalhost.status).toBe(200);
    expect(viaLocalhost.json.servers[0].url).toBe(`http://localhost:${port}/api/v1`);
  });

  it('names every resource under components/schemas, and the operations reference them', () => {
    const names = [
      'AdCreative',
      'ContentListener',
      'ScheduledPost',
      'Learning',
      'NurtureSequence',
      'VisibilityKeyword',
      'BrandSubject',
      'CrmAgent',
      'EntitySummary',
      'InvoiceAlert',
      'RevenueRecord',
      'BusinessEntity',
      'FinanceSummary',
      'ErrorEnvelope',
    ];
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(names));
    const refs = new Set([...rawText.matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)].map((m) => m[1]));
    for (const name of Object.keys(doc.components.schemas)) expect(refs.has(name), `${name} is referenced`).toBe(true);
    const create = doc.paths['/content/ads/creatives/create']!.post!;
    expect((create.responses['200']!.content!['application/json']!.schema as Node).properties.data).toEqual({ $ref: '#/components/schemas/AdCreative' });
  });

  it('lists fixed values as enums and timestamps with their formats (docs/api-decisions.md §10)', () => {
    const s = schemasOf(doc);
    expect(s.AdCreative.properties.platform.enum).toEqual(['google', 'meta', 'linkedin', 'tiktok', 'pinterest', 'x']);
    expect(s.AdCreative.properties.adFormat.enum).toContain('carousel');
    expect(s.AdCreative.properties.status.enum).toEqual(['draft']);
    expect(s.AdCreative.properties.createdAt).toEqual({ type: 'string', format: 'date-time' });
    expect(s.ContentListener.properties.sourceType.enum).toContain('rss');
    expect(s.ContentListener.properties.pollInterval.enum).toEqual(['1h', '6h', '12h', '24h', '7d']);
    expect(s.ContentListener.properties.lastPolledAt.anyOf).toEqual([{ type: 'string', format: 'date-time' }, { type: 'null' }]);
    expect(s.Learning.properties.dimensionType.enum).toEqual(['hook', 'angle', 'offer', 'story', 'audience', 'format', 'cta']);
    expect(s.NurtureSequence.properties.status.enum).toEqual(['draft', 'active', 'paused', 'archived']);
    expect(s.ScheduledPost.properties.status.enum).toEqual(['scheduled']);
    expect(s.RevenueRecord.properties.next_invoice_date.anyOf[0]).toEqual({ type: 'string', format: 'date' });
    expect(s.VisibilityGrid.properties.scanDate.anyOf[0]).toEqual({ type: 'string', format: 'date' });
    const ad = s.CreateAdCreativeRequest.properties;
    expect(ad.destination_url).toMatchObject({ format: 'uri', pattern: '^https?://' });
    expect(ad.image_urls.items).toMatchObject({ format: 'uri', pattern: '^https?://' });
    expect(s.ScheduleSocialPostRequest.properties.scheduled_at.description).toMatch(/strictly in the future/);
    // A request default is said in words, so that generated types keep the field optional.
    expect(s.CreateRssListenerRequest.properties.poll_interval).toEqual({ type: 'string', enum: ['1h', '6h', '12h', '24h', '7d'], description: 'How often the source is polled. Default: "24h".' });
    expect(s.CreateRssListenerRequest.required).not.toContain('poll_interval');
  });

  it('documents the listener body as one schema per source_type, each with its query_config shape', () => {
    const s = schemasOf(doc);
    const body = s.CreateContentListenerRequest;
    expect(body.oneOf).toHaveLength(9);
    expect(body.discriminator.propertyName).toBe('source_type');
    for (const [source, ref] of Object.entries(body.discriminator.mapping)) {
      const variant = s[ref.replace('#/components/schemas/', '')]!;
      expect(variant.properties.source_type.const, ref).toBe(source);
      expect(variant.required).toEqual(expect.arrayContaining(['name', 'source_type', 'query_config']));
    }
    expect(s.CreateRssListenerRequest.properties.query_config).toEqual({ $ref: '#/components/schemas/RssQueryConfig' });
    expect(s.RssQueryConfig.required).toEqual(['feed_url']);
    // At least one of subreddit and keywords: one alternative requiring each, both typed.
    expect(s.RedditQueryConfig.anyOf.map((alt) => alt.required)).toEqual([['subreddit'], ['keywords']]);
    for (const alt of s.RedditQueryConfig.anyOf) expect(Object.keys(alt.properties)).toEqual(['subreddit', 'keywords']);
  });

  it('has a description for every tag, a license and a contact', () => {
    for (const tag of doc.tags ?? []) expect(tag.description, tag.name).toMatch(/\w/);
    expect(doc.info.license).toEqual({ name: 'MIT', url: expect.stringMatching(/^https:\/\//) });
    expect(doc.info.contact?.name).toMatch(/\w/);
  });

  it('every response schema compiles with ajv (draft 2020-12)', () => {
    const v = new ResponseValidator(doc);
    expect(v.operations.size).toBe(endpointList.length);
    for (const [operationId, { op }] of v.operations) {
      for (const status of Object.keys(op.responses)) expect(() => v.validatorFor(operationId, Number(status))).not.toThrow();
    }
  });
});
