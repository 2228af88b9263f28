import { endpointList, type Endpoint } from '../api/endpoints.js';
import { roleSentence } from '../api/routes.js';
import { ERROR_MEANINGS } from '../api/error-statuses.js';
import { ErrorBody } from '../api/schemas/common.js';
import { jsonSchemaOf, type JsonSchema } from '../api/json-schema.js';


/** The error statuses an operation can answer with (the table's `errorStatuses`), each with its meaning. */
export function errorStatuses(ep: Endpoint): Record<string, string> {
  return Object.fromEntries(ep.errorStatuses.map((status) => [String(status), ERROR_MEANINGS[status]]));
}

const rateLimitHeaders = {
  'X-RateLimit-Limit': { description: 'Requests allowed per window', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the window', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'End of the window, epoch seconds', schema: { type: 'integer' } },
};

function parameters(ep: Endpoint): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const [where, schema] of [['path', ep.params], ['query', ep.query]] as const) {
    if (!schema) continue;
    const obj = jsonSchemaOf(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, prop] of Object.entries(obj.properties ?? {})) {
      const { description, ...propSchema } = prop as JsonSchema & { description?: string };
      out.push({
        name,
        in: where,
        required: where === 'path' || (obj.required ?? []).includes(name),
        ...(description ? { description } : {}),
        schema: propSchema,
      });
    }
  }
  return out;
}

function operation(ep: Endpoint): JsonSchema {
  const responses: Record<string, JsonSchema> = {
    '200': {
      description: 'Success',
      headers: rateLimitHeaders,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['success', 'data'],
            properties: { success: { const: true }, data: jsonSchemaOf(ep.data, 'output') },
          },
        },
      },
    },
  };
  for (const [status, description] of Object.entries(errorStatuses(ep))) {
    responses[status] = {
      description,
      ...(status === '429' ? { headers: { ...rateLimitHeaders, 'Retry-After': { description: 'Seconds to wait (3600)', schema: { type: 'integer' } } } } : {}),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
    };
  }
  const op: JsonSchema = {
    operationId: ep.operationId,
    summary: ep.title,
    description: `${ep.description} ${roleSentence(ep)}`,
    tags: [ep.tag],
    security: [{ bearerAuth: [] }],
    parameters: parameters(ep),
    responses,
  };
  if (ep.body) {
    op.requestBody = { required: true, content: { 'application/json': { schema: jsonSchemaOf(ep.body, 'input') } } };
  }
  return op;
}

/** OpenAPI path template: the table already uses `{id}`. */
const openApiPath = (ep: Endpoint) => ep.path;

/**
 * The OpenAPI 3.1 document, generated from the endpoint table (never written by hand), so
 * the document, the server and the CLI cannot drift apart.
 */
export function buildOpenApiDocument(serverUrl = '/api/v1'): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const ep of endpointList) {
    paths[openApiPath(ep)] ??= {};
    paths[openApiPath(ep)]![ep.method.toLowerCase()] = operation(ep);
  }
  const tags = [...new Set(endpointList.map((e) => e.tag))].map((name) => ({ name }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Content Management Service API',
      version: '1.0.0',
      description: 'The published /api/v1 interface as implemented by the cr local server. Errors use the envelope {success:false, error, code}.',
    },
    servers: [{ url: serverUrl }],
    tags,
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'API key: cr_ followed by 40 hex characters' },
      },
      schemas: { ErrorEnvelope: jsonSchemaOf(ErrorBody, 'output') },
    },
  };
}
