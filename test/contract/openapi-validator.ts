import type { ErrorObject, ValidateFunction } from 'ajv';
import { Ajv2020, addFormats, type Ajv } from './ajv.js';

/** The parts of the OpenAPI document the contract tests read. */
export interface OpenApiDoc {
  openapi: string;
  info: { title: string; version: string; license?: { name: string; url?: string }; contact?: { name?: string } };
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, any> };
  security?: Record<string, string[]>[];
  tags?: { name: string; description?: string }[];
  servers?: { url: string; description?: string }[];
}

export interface OpenApiOperation {
  operationId: string;
  tags: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; schema: unknown }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: any }> };
  responses: Record<string, { description: string; headers?: Record<string, unknown>; content?: Record<string, { schema: unknown }> }>;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const COMPONENTS_ID = 'https://cr.local/openapi/components';

/** `#/components/schemas/X` → the components schema registered under its own $id. */
function rewriteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === '$ref' && typeof v === 'string') {
      const m = /^#\/components\/schemas\/(.+)$/.exec(v);
      if (!m) throw new Error(`unsupported $ref in the OpenAPI document: ${v}`);
      out[k] = `${COMPONENTS_ID}#/$defs/${m[1]}`;
    } else out[k] = rewriteRefs(v);
  }
  return out;
}

export interface Operation {
  path: string;
  method: string;
  op: OpenApiOperation;
}

/**
 * Validates response bodies against the OpenAPI document with ajv (JSON Schema draft
 * 2020-12, as OpenAPI 3.1 uses), formats checked. `#/components/...` references are resolved
 * through a schema registered with its own $id.
 */
export class ResponseValidator {
  private readonly ajv: Ajv;
  private readonly cache = new Map<string, ValidateFunction>();
  readonly operations = new Map<string, Operation>();

  constructor(readonly doc: OpenApiDoc) {
    this.ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictTuples: false });
    addFormats(this.ajv);
    // OpenAPI's own keyword on the listener body's oneOf: an annotation for JSON Schema.
    this.ajv.addKeyword('discriminator');
    this.ajv.addSchema({ $id: COMPONENTS_ID, $defs: rewriteRefs(doc.components.schemas) as Record<string, unknown> });
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (!HTTP_METHODS.includes(method)) continue;
        if (this.operations.has(op.operationId)) throw new Error(`duplicate operationId ${op.operationId}`);
        this.operations.set(op.operationId, { path, method, op });
      }
    }
  }

  /** The compiled validator of one documented response; throws when the status is not documented. */
  validatorFor(operationId: string, status: number): ValidateFunction {
    const entry = this.operations.get(operationId);
    if (!entry) throw new Error(`operation ${operationId} is not in the OpenAPI document`);
    const response = entry.op.responses[String(status)];
    if (!response) {
      throw new Error(`status ${status} is not documented for ${operationId} (documented: ${Object.keys(entry.op.responses).join(', ')})`);
    }
    const schema = response.content?.['application/json']?.schema;
    if (!schema) throw new Error(`${operationId} ${status} documents no application/json body`);
    const key = `${operationId} ${status}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const v = this.ajv.compile(rewriteRefs(schema) as object);
    this.cache.set(key, v);
    return v;
  }

  /** A validator for any schema of the document (its `#/components/...` references resolved). */
  validatorForSchema(schema: unknown): ValidateFunction {
    return this.ajv.compile(rewriteRefs(schema) as object);
  }

  /** Errors of `body` against the documented response (empty when it validates). */
  errors(operationId: string, status: number, body: unknown): ErrorObject[] {
    const v = this.validatorFor(operationId, status);
    return v(body) ? [] : [...(v.errors ?? [])];
  }

  /** Throws with the ajv errors unless the body validates. */
  assertValid(operationId: string, status: number, body: unknown, label = ''): void {
    const errs = this.errors(operationId, status, body);
    if (errs.length) {
      throw new Error(`${label} ${operationId} ${status}: body does not match the OpenAPI document:\n${this.ajv.errorsText(errs, { separator: '\n' })}\n${JSON.stringify(body).slice(0, 500)}`);
    }
  }
}
