import * as z from 'zod';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { endpointList, type Endpoint, type OperationId, type TableEndpoint } from '../../api/endpoints.js';
import { roleSentence } from '../../api/routes.js';
import { documentedForm, jsonSchemaOf, type JsonSchema } from '../../api/json-schema.js';
import type { ApiRequest, ApiResponse } from './operation-types.js';
import { version } from '../../startup/version.js';
import { errorEnvelope } from '../domain/errors.js';

/** Runs one operation through the app's own pipeline (key, rate limit, role, validation, scope). */
export type InvokeOperation = (operationId: OperationId, req: ApiRequest) => Promise<ApiResponse>;

const shapeOf = (schema: unknown): Record<string, z.ZodType> =>
  schema && typeof schema === 'object' && 'shape' in schema ? ((schema as z.ZodObject).shape as Record<string, z.ZodType>) : {};

/**
 * The fields of a body as a tool shows them. A body documented as a union keyed by one field
 * (the listener's source_type, docs/api-decisions.md §10) becomes one object: that field an enum, and
 * each other field the alternatives the variants give it, so query_config offers every
 * source's shape. Agents handle a top-level object better than a top-level oneOf.
 */
function documentedShape(schema: z.ZodType | undefined): Record<string, z.ZodType> {
  if (!schema) return {};
  const doc = documentedForm(schema);
  if (!(doc instanceof z.ZodDiscriminatedUnion)) return shapeOf(doc);
  const key = doc._zod.def.discriminator;
  const variants = doc.options as unknown as z.ZodObject[];
  const shape: Record<string, z.ZodType> = {};
  for (const name of new Set(variants.flatMap((v) => Object.keys(v.shape)))) {
    const alternatives = [...new Set(variants.map((v) => v.shape[name] as z.ZodType | undefined).filter((s) => s !== undefined))];
    if (name === key) {
      const values = variants.map((v) => String((v.shape[name] as z.ZodLiteral<string>).value));
      shape[name] = z.enum(values as [string, ...string[]]).describe(`Picks the shape of the other fields: one of ${values.join(', ')}`);
    } else {
      shape[name] = alternatives.length === 1 ? alternatives[0]! : z.union(alternatives as [z.ZodType, z.ZodType, ...z.ZodType[]]);
    }
  }
  return shape;
}

/** The tool's arguments: path, query and body fields merged into one flat object (docs/api-decisions.md §8). */
export function toolInputSchema(ep: Endpoint): z.ZodObject {
  return z.object({ ...shapeOf(ep.params), ...shapeOf(ep.query), ...documentedShape(ep.body) });
}

interface ToolDescriptor {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: { readOnlyHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
}

let toolCache: ToolDescriptor[] | undefined;

/**
 * One tool per operation of the endpoint table, named by operation name. The description
 * states the minimum role where it is above the `viewer` every read needs (docs/api-decisions.md §2);
 * the hints come from the table's method and `idempotent`.
 */
export function toolDescriptors(): ToolDescriptor[] {
  toolCache ??= endpointList.map((ep) => ({
    name: ep.operationId,
    title: ep.title,
    description: `${ep.description}${ep.minRole === 'viewer' ? '' : ` ${roleSentence(ep)}`} (${ep.method} /api/v1${ep.path})`,
    inputSchema: { type: 'object', ...jsonSchemaOf(toolInputSchema(ep), 'input') },
    outputSchema: { type: 'object', properties: { data: jsonSchemaOf(ep.data, 'output') }, required: ['data'] },
    annotations: { readOnlyHint: ep.method === 'GET', idempotentHint: ep.idempotent, openWorldHint: false },
  }));
  return toolCache;
}

/** Splits flat tool arguments back into the path, query and body of the REST call. */
export function splitArguments(ep: Endpoint, args: Record<string, unknown>): Pick<ApiRequest, 'params' | 'query' | 'body'> {
  const params: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  const body: Record<string, unknown> = {};
  const p = shapeOf(ep.params);
  const q = shapeOf(ep.query);
  const b = shapeOf(ep.body);
  for (const [key, value] of Object.entries(args)) {
    if (key in p) params[key] = value;
    if (key in q) query[key] = value;
    // Unknown arguments go to the body, where the REST validation ignores them too.
    if (key in b || (!(key in p) && !(key in q))) body[key] = value;
  }
  return { params, query, body: ep.body ? body : undefined };
}

function buildServer(invoke: InvokeOperation, authorization: string | undefined): Server {
  const server = new Server({ name: 'cr-local', version: version() }, { capabilities: { tools: {} } });
  const byName = new Map<string, TableEndpoint>(endpointList.map((ep) => [ep.operationId, ep]));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolDescriptors() }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const ep = byName.get(request.params.name);
    if (!ep) {
      const envelope = errorEnvelope(`Unknown tool: ${request.params.name}`, 'NOT_FOUND');
      return { isError: true, content: [{ type: 'text', text: JSON.stringify(envelope) }] };
    }
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    const { status, body } = await invoke(ep.operationId, {
      headers: authorization === undefined ? {} : { authorization },
      ...splitArguments(ep, args),
    });
    const envelope = body as { success?: boolean; data?: unknown };
    if (status >= 400 || envelope?.success !== true) {
      return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
    }
    return { content: [{ type: 'text', text: JSON.stringify(envelope.data) }], structuredContent: { data: envelope.data } };
  });
  return server;
}

/**
 * Handles one HTTP request to /api/v1/mcp, statelessly: a fresh server and transport per
 * request, JSON responses (no long-lived SSE streams to keep track of). The caller has
 * already checked Host/Origin, the key and the rate limit.
 */
export async function handleMcpRequest(request: Request, invoke: InvokeOperation, parsedBody?: unknown): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  const server = buildServer(invoke, request.headers.get('authorization') ?? undefined);
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody });
  } finally {
    // With JSON responses the body is complete once handleRequest resolves.
    void server.close();
  }
}
