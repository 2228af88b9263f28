import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

/**
 * A table schema as JSON Schema 2020-12 (what OpenAPI 3.1 and MCP tool schemas use),
 * without the top-level `$schema` key so it can be embedded. `io` picks the request side
 * (defaults and optional fields as a caller sends them) or the response side.
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  return rest;
}
