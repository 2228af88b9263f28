import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { endpointList } from '../../src/api/endpoints.js';
import { EXAMPLES } from '../../src/api/examples.js';
import { buildOpenApiDocument } from '../../src/server/app/openapi.js';
import { type OpenApiDoc, type OpenApiOperation, ResponseValidator } from './openapi-validator.js';

/**
 * docs/api-decisions.md §10: every operation has a request example and a 200 example, and every
 * example in the document passes its own schema (ajv, draft 2020-12, formats on). The
 * examples also pass the zod schemas the server validates with, so a client that copies
 * one sends a request the server accepts.
 */

const doc = buildOpenApiDocument('http://127.0.0.1:4010/api/v1') as unknown as OpenApiDoc;
const validator = new ResponseValidator(doc);

type Media = { schema: unknown; example?: unknown; examples?: Record<string, { value: unknown }> };
type Parameter = NonNullable<OpenApiOperation['parameters']>[number] & { example?: unknown };

interface Found {
  where: string;
  schema: unknown;
  value: unknown;
}

/** Every example of the document with the schema it illustrates. */
function examplesOf(d: OpenApiDoc): Found[] {
  const found: Found[] = [];
  const media = (where: string, m: Media | undefined) => {
    if (!m) return;
    if (m.example !== undefined) found.push({ where, schema: m.schema, value: m.example });
    for (const [name, ex] of Object.entries(m.examples ?? {})) found.push({ where: `${where} examples.${name}`, schema: m.schema, value: ex.value });
  };
  for (const [path, item] of Object.entries(d.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const at = `${method.toUpperCase()} ${path}`;
      for (const p of (op.parameters ?? []) as Parameter[]) if (p.example !== undefined) found.push({ where: `${at} parameter ${p.name}`, schema: p.schema, value: p.example });
      media(`${at} requestBody`, op.requestBody?.content['application/json'] as Media | undefined);
      for (const [status, res] of Object.entries(op.responses)) media(`${at} ${status}`, res.content?.['application/json'] as Media | undefined);
    }
  }
  for (const [name, schema] of Object.entries(d.components.schemas)) {
    for (const [i, value] of ((schema as { examples?: unknown[] }).examples ?? []).entries()) found.push({ where: `components.schemas.${name} examples[${i}]`, schema, value });
  }
  return found;
}

const operationOf = (operationId: string) => validator.operations.get(operationId)!.op;

describe('examples of the OpenAPI document', () => {
  it('every operation has a 200 example, and a request example for each input it takes', () => {
    for (const ep of endpointList) {
      const op = operationOf(ep.operationId);
      const ok = op.responses['200']!.content!['application/json'] as Media;
      expect(ok.example, `${ep.operationId} 200`).toBeDefined();
      for (const p of (op.parameters ?? []) as Parameter[]) expect(p.example, `${ep.operationId} parameter ${p.name}`).toBeDefined();
      if (ep.body) expect(Object.keys((op.requestBody!.content['application/json'] as Media).examples ?? {}).length, ep.operationId).toBeGreaterThan(0);
    }
    // The listener body shows more than one source, rss (the one with a URL) among them.
    const listener = operationOf('createContentListener').requestBody!.content['application/json'] as Media;
    expect(Object.keys(listener.examples!)).toEqual(expect.arrayContaining(['rss', 'reddit']));
  });

  it('every example validates against its own schema', () => {
    const all = examplesOf(doc);
    expect(all.length).toBeGreaterThan(25);
    for (const { where, schema, value } of all) {
      const validate = validator.validatorForSchema(schema);
      expect(validate(value) ? [] : validate.errors, where).toEqual([]);
    }
  });

  it('an example that breaks its schema is caught (the check above is not vacuous)', () => {
    const broken = structuredClone(doc);
    const create = broken.paths['/content/listeners']!.post!;
    const media = create.requestBody!.content['application/json'] as Media;
    (media.examples!.rss!.value as { query_config: unknown }).query_config = {};
    const ok = create.responses['200']!.content!['application/json'] as Media;
    (ok.example as { data: { pollInterval: string } }).data.pollInterval = '2h';
    const failing = examplesOf(broken).filter(({ schema, value }) => !validator.validatorForSchema(schema)(value));
    expect(failing.map((f) => f.where).sort()).toEqual(['POST /content/listeners 200', 'POST /content/listeners requestBody examples.rss']);
  });

  it('the examples pass the zod schemas the server validates requests with and builds responses from', () => {
    for (const ep of endpointList) {
      const example = EXAMPLES[ep.operationId];
      const check = (schema: z.ZodType | undefined, value: unknown, what: string) => {
        if (!schema) return;
        const parsed = schema.safeParse(value);
        expect(parsed.success ? [] : parsed.error.issues, `${ep.operationId} ${what}`).toEqual([]);
      };
      const parameters = (example as { parameters?: Record<string, unknown> }).parameters ?? {};
      const pick = (schema: z.ZodType | undefined) => Object.fromEntries(Object.entries(parameters).filter(([k]) => k in ((schema as { shape?: object } | undefined)?.shape ?? {})));
      check(ep.params, pick(ep.params), 'path');
      check(ep.query, pick(ep.query), 'query');
      for (const [name, body] of Object.entries((example as { bodies?: Record<string, { value: unknown }> }).bodies ?? {})) check(ep.body, body.value, `body ${name}`);
      check(ep.data, example.response, '200 data');
    }
  });
});
