import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import SwaggerParser from '@apidevtools/swagger-parser';
// openapi-types is swagger-parser's peer dependency: the document type its validate() takes.
import type { OpenAPI } from 'openapi-types';
import { z } from 'zod';
import { endpointList } from '../../src/api/endpoints.js';
import { buildOpenApiDocument } from '../../src/server/openapi.js';
import { cleanupTempDirs } from '../helpers/tmp.js';
import { ensureBuilt, request, spawnCrServe, type CrServe } from '../mcp/cr-serve.js';
import { HTTP_METHODS, ResponseValidator, type OpenApiDoc } from './openapi-validator.js';

/** GET /api/v1/openapi.json of the real `cr serve` (decisions.md §8). */

let srv: CrServe;
let doc: OpenApiDoc;
let rawText: string;

beforeAll(async () => {
  await ensureBuilt();
  srv = await spawnCrServe();
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

const shapeKeys = (schema: unknown) => Object.keys((schema as { shape?: Record<string, unknown> } | undefined)?.shape ?? {});
const strip = (s: Record<string, unknown>) => {
  const { $schema: _drop, ...rest } = s;
  return rest;
};

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
    expect(ops.length).toBe(9);
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
      expect(params.filter((p) => p.in === 'path').map((p) => p.name).sort(), ep.operationId).toEqual(shapeKeys(ep.params).sort());
      expect(params.filter((p) => p.in === 'path').every((p) => p.required === true)).toBe(true);
      expect(params.filter((p) => p.in === 'query').map((p) => p.name).sort(), ep.operationId).toEqual(shapeKeys(ep.query).sort());
      for (const p of params) {
        const source = (p.in === 'path' ? ep.params : ep.query) as unknown as { shape: Record<string, z.ZodType> };
        const { $schema: _d, description: _desc, ...expected } = z.toJSONSchema(source.shape[p.name]!, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
        expect(p.schema, `${ep.operationId} ${p.name}`).toEqual(expected);
      }
      if (ep.body) {
        const schema = op.requestBody!.content['application/json']!.schema;
        expect(Object.keys(schema.properties).sort()).toEqual(shapeKeys(ep.body).sort());
        expect(schema).toEqual(strip(z.toJSONSchema(ep.body, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>));
      } else {
        expect(op.requestBody, ep.operationId).toBeUndefined();
      }
      const ok = op.responses['200']!.content!['application/json']!.schema as any;
      expect(ok.required).toEqual(['success', 'data']);
      expect(ok.properties.data).toEqual(strip(z.toJSONSchema(ep.data, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>));
    }
  });

  it('documents the error statuses of decisions.md §1 per operation', () => {
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

  it('is exactly what buildOpenApiDocument generates from the table', () => {
    expect(doc).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument('/api/v1'))));
    expect(rawText).not.toMatch(/Minimum role: (viewer|editor)\. Minimum role/);
  });

  it('every response schema compiles with ajv (draft 2020-12)', () => {
    const v = new ResponseValidator(doc);
    expect(v.operations.size).toBe(9);
    for (const [operationId, { op }] of v.operations) {
      for (const status of Object.keys(op.responses)) expect(() => v.validatorFor(operationId, Number(status))).not.toThrow();
    }
  });
});
