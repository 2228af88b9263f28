import { endpointList, type Endpoint, type TableEndpoint } from '../../api/endpoints.js';
import { roleSentence } from '../../api/routes.js';
import { ERROR_MEANINGS } from '../../api/error-statuses.js';
import { ErrorBody } from '../../api/schemas/common.js';
import { jsonSchemaOf, jsonSchemaWithRefs, type JsonSchema } from '../../api/json-schema.js';
import { EXAMPLES, type OperationExample } from '../../api/examples.js';
import { TAG_DESCRIPTIONS } from '../../api/tags.js';

/** The error statuses an operation can answer with (the table's `errorStatuses`), each with its meaning. */
export function errorStatuses(ep: Endpoint): Record<string, string> {
  return Object.fromEntries(ep.errorStatuses.map((status) => [String(status), ERROR_MEANINGS[status]]));
}

const rateLimitHeaders = {
  'X-RateLimit-Limit': { description: 'Requests allowed per window', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the window', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'End of the window, epoch seconds', schema: { type: 'integer' } },
};

const ERROR_REF = { $ref: '#/components/schemas/ErrorEnvelope' };

function parameters(ep: Endpoint, example: OperationExample<never>): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const [where, schema] of [
    ['path', ep.params],
    ['query', ep.query],
  ] as const) {
    if (!schema) continue;
    const obj = jsonSchemaOf(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, prop] of Object.entries(obj.properties ?? {})) {
      const { description, ...propSchema } = prop as JsonSchema & { description?: string };
      const value = example.parameters?.[name];
      out.push({
        name,
        in: where,
        required: where === 'path' || (obj.required ?? []).includes(name),
        ...(description ? { description } : {}),
        schema: propSchema,
        ...(value === undefined ? {} : { example: value }),
      });
    }
  }
  return out;
}

/**
 * Client generators (openapi-typescript among them) take a property with a `default` to be
 * always present, which holds for responses only: in a request body the server applies the
 * default (docs/api-decisions.md §5), so there it is said in the description and the field stays
 * optional in generated types. MCP tool schemas keep `default`.
 */
export function defaultsAsText(node: JsonSchema): JsonSchema {
  const properties = node.properties as Record<string, JsonSchema> | undefined;
  if (!properties) return node;
  const out: Record<string, JsonSchema> = {};
  for (const [name, prop] of Object.entries(properties)) {
    const { default: value, description, ...rest } = prop;
    out[name] = value === undefined ? prop : { ...rest, description: `${description ? `${description}. ` : ''}Default: ${JSON.stringify(value)}.` };
  }
  return { ...node, properties: out };
}

/** The 200 body: the success envelope around the operation's data (docs/api-decisions.md, Response envelope). */
function successSchema(ep: Endpoint, components: Record<string, JsonSchema>): JsonSchema {
  return {
    type: 'object',
    required: ['success', 'data'],
    properties: { success: { type: 'boolean', const: true }, data: jsonSchemaWithRefs(ep.data, 'output', components) },
  };
}

function operation(ep: TableEndpoint, components: Record<string, JsonSchema>): JsonSchema {
  const example = EXAMPLES[ep.operationId] as OperationExample<never>;
  const responses: Record<string, JsonSchema> = {
    '200': {
      description: 'Success',
      headers: rateLimitHeaders,
      content: { 'application/json': { schema: successSchema(ep, components), example: { success: true, data: example.response } } },
    },
  };
  for (const [status, description] of Object.entries(errorStatuses(ep))) {
    responses[status] = {
      description,
      ...(status === '429' ? { headers: { ...rateLimitHeaders, 'Retry-After': { description: 'Seconds to wait (3600)', schema: { type: 'integer' } } } } : {}),
      content: { 'application/json': { schema: ERROR_REF } },
    };
  }
  const op: JsonSchema = {
    operationId: ep.operationId,
    summary: ep.title,
    description: `${ep.description} ${roleSentence(ep)}`,
    tags: [ep.tag],
    security: [{ bearerAuth: [] }],
    parameters: parameters(ep, example),
    responses,
  };
  if (ep.body) {
    const own: Record<string, JsonSchema> = {};
    const schema = jsonSchemaWithRefs(ep.body, 'input', own);
    for (const [id, def] of Object.entries(own)) components[id] = defaultsAsText(def);
    op.requestBody = { required: true, content: { 'application/json': { schema, examples: example.bodies } } };
  }
  return op;
}

/**
 * The OpenAPI 3.1 document, generated from the endpoint table (never written by hand), so the
 * document, the server and the CLI cannot drift apart. Every schema named in the table is a
 * component that the operations reference (docs/api-decisions.md §10). `serverUrl` is the absolute base
 * URL the request came in on when served; the relative prefix otherwise.
 */
export function buildOpenApiDocument(serverUrl = '/api/v1'): JsonSchema {
  const components: Record<string, JsonSchema> = {};
  jsonSchemaWithRefs(ErrorBody, 'output', components);
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const ep of endpointList) {
    paths[ep.path] ??= {};
    paths[ep.path]![ep.method.toLowerCase()] = operation(ep, components);
  }
  const tags = [...new Set(endpointList.map((e) => e.tag))].sort().map((name) => {
    const description = TAG_DESCRIPTIONS[name];
    if (!description) throw new Error(`tag ${name} has no description in src/api/tags.ts`);
    return { name, description };
  });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Content Management Service API',
      version: '1.0.0',
      description:
        'The published /api/v1 interface as implemented by the cr local server. Every request needs `Authorization: Bearer <API key>`. Errors use the envelope {success:false, error, code}.',
      contact: { name: 'cr maintainers' },
      license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
    },
    servers: [{ url: serverUrl, description: 'The server this document was read from' }],
    tags,
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'API key: cr_ followed by 40 hex characters' },
      },
      schemas: Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b))),
    },
  };
}
