import * as z from 'zod';
import { CHECKED_KEYWORDS } from './check-json.js';

export type JsonSchema = Record<string, unknown>;
type Io = 'input' | 'output';

/**
 * Enums whose values are this project's decisions (docs/api-decisions.md §4–§5), not the published
 * interface's (docs/api-decisions.md says "not shown"). The local server's document lists them; the
 * CLI's response checks do not, so it keeps working against the hosted service.
 */
const localVocabulary = new WeakSet<z.ZodType>();

/** `.describe()` and `.meta()` return a copy whose `_zod.parent` is the marked schema. */
function isLocal(schema: z.ZodType | undefined): boolean {
  for (let s = schema; s; s = s._zod.parent as z.ZodType | undefined) if (localVocabulary.has(s)) return true;
  return false;
}

/** Marks an enum as a local decision (see localVocabulary); returns it unchanged. */
export function localEnum<T extends z.ZodType>(schema: T): T {
  localVocabulary.add(schema);
  return schema;
}

/**
 * The form a schema takes in documents (OpenAPI, MCP tools) when it differs from the one the
 * server validates with: the listener body is validated field by field (so a 400 names every
 * offending path, docs/api-decisions.md §5) but documented as a union keyed by source_type (§10).
 */
const documentedForms = new WeakMap<z.ZodType, z.ZodType>();

export function documentAs<T extends z.ZodType>(schema: T, documented: z.ZodType): T {
  documentedForms.set(schema, documented);
  return schema;
}

export const documentedForm = (schema: z.ZodType): z.ZodType => documentedForms.get(schema) ?? schema;

const ANNOTATIONS = new Set(['description', 'title', 'examples', 'default', 'deprecated', 'readOnly', 'writeOnly']);
const isEmptyObject = (v: unknown) => !!v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0;

/**
 * Rewrites the forms zod emits that generated clients and MCP agents handle badly (the MCP
 * inspector's strict check): `type: [x, "null"]` becomes `anyOf` of the type and null, and
 * `additionalProperties: {}` is left out on objects with properties (open is the default) or
 * written `true` on free maps, whose `propertyNames: {type: string}` says nothing in JSON.
 */
function portable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(portable);
  if (!node || typeof node !== 'object') return node;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'properties' || k === '$defs') out[k] = Object.fromEntries(Object.entries(v as JsonSchema).map(([name, s]) => [name, portable(s)]));
    else if (k === 'enum' || k === 'const' || k === 'examples' || k === 'default' || k === 'required') out[k] = v;
    else out[k] = portable(v);
  }
  if (Array.isArray(out.type) && out.type.includes('null')) {
    const others = (out.type as string[]).filter((t) => t !== 'null');
    const typed: JsonSchema = { type: others.length === 1 ? others[0] : others };
    const outer: JsonSchema = {};
    for (const [k, v] of Object.entries(out)) if (k !== 'type') (ANNOTATIONS.has(k) ? outer : typed)[k] = v;
    return { ...outer, anyOf: [typed, { type: 'null' }] };
  }
  if (isEmptyObject(out.additionalProperties)) {
    if (out.properties) delete out.additionalProperties;
    else {
      out.additionalProperties = true;
      if (JSON.stringify(out.propertyNames) === '{"type":"string"}') delete out.propertyNames;
    }
  }
  return out;
}

function convert(schema: z.ZodType, io: Io, widenLocal = false): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
    override: widenLocal
      ? ({ zodSchema, jsonSchema }) => {
          if (isLocal(zodSchema as unknown as z.ZodType)) delete (jsonSchema as JsonSchema).enum;
        }
      : undefined,
  }) as JsonSchema;
  return portable(rest) as JsonSchema;
}

const DEF_REF = /^#\/\$defs\/(.+)$/;

/** Replaces `$ref`s into `defs` by the schemas they name (the table's schemas have no cycles). */
function inline(node: unknown, defs: Record<string, unknown>): unknown {
  if (Array.isArray(node)) return node.map((n) => inline(n, defs));
  if (!node || typeof node !== 'object') return node;
  const { $ref, $defs: _defs, ...rest } = node as JsonSchema;
  const out: JsonSchema = {};
  if (typeof $ref === 'string') {
    const id = DEF_REF.exec($ref)?.[1];
    if (!id || !(id in defs)) throw new Error(`unresolvable $ref ${$ref}`);
    Object.assign(out, inline(defs[id], defs));
  }
  for (const [k, v] of Object.entries(rest)) out[k] = k === 'enum' || k === 'const' || k === 'examples' || k === 'default' ? v : inline(v, defs);
  return out;
}

/**
 * A table schema as self-contained JSON Schema 2020-12 (MCP tool schemas: agents do not all
 * follow `$ref`), without `$schema`. `io` picks the request side (defaults and optional fields
 * as a caller sends them) or the response side.
 */
export function jsonSchemaOf(schema: z.ZodType, io: Io): JsonSchema {
  const converted = convert(documentedForm(schema), io);
  return inline(converted, (converted.$defs ?? {}) as Record<string, unknown>) as JsonSchema;
}

/**
 * A table schema for a document with shared components (OpenAPI): every schema named with
 * `.meta({ id })` goes to `components` (checked to come out the same wherever it is used)
 * and is referenced as `#/components/schemas/<id>`.
 */
export function jsonSchemaWithRefs(schema: z.ZodType, io: Io, components: Record<string, JsonSchema>): JsonSchema {
  const { $defs, ...root } = convert(documentedForm(schema), io);
  const toComponents = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(toComponents);
    if (!node || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) => [
        k,
        k === '$ref' && typeof v === 'string' ? v.replace(DEF_REF, '#/components/schemas/$1') : k === 'enum' || k === 'examples' ? v : toComponents(v),
      ]),
    );
  };
  for (const [id, def] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
    const named = toComponents(def) as JsonSchema;
    const known = components[id];
    if (known && JSON.stringify(known) !== JSON.stringify(named)) throw new Error(`schema ${id} comes out differently in two places (${io})`);
    components[id] = named;
  }
  return toComponents(root) as JsonSchema;
}

/** Keeps only the keywords checkJson reads, at every schema position. */
function checkedOnly(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(checkedOnly);
  if (!node || typeof node !== 'object') return node;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node)) {
    if (!CHECKED_KEYWORDS.has(k)) continue;
    if (k === 'properties') out[k] = Object.fromEntries(Object.entries(v as JsonSchema).map(([name, s]) => [name, checkedOnly(s)]));
    else out[k] = k === 'enum' || k === 'required' ? v : checkedOnly(v);
  }
  return out;
}

/**
 * A response schema as the CLI checks it (generated/response-schemas.ts): self-contained, only
 * the keywords checkJson reads (no formats or patterns), local vocabularies widened to strings,
 * so the CLI assumes only what docs/api-decisions.md states.
 */
export function cliResponseSchemaOf(schema: z.ZodType): JsonSchema {
  const converted = convert(schema, 'output', true);
  return checkedOnly(inline(converted, (converted.$defs ?? {}) as Record<string, unknown>)) as JsonSchema;
}

/**
 * A request part (path, query or body) as the CLI reads it (generated/request-schemas.ts): the
 * form the server validates with (not the documented one), self-contained, only the keywords
 * checkJson reads; the CLI takes its flags' values and bounds from it (docs/cli-contract.md §5).
 */
export function cliRequestSchemaOf(schema: z.ZodType): JsonSchema {
  const converted = convert(schema, 'input');
  return checkedOnly(inline(converted, (converted.$defs ?? {}) as Record<string, unknown>)) as JsonSchema;
}
