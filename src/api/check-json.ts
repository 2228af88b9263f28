/** A JSON Schema (2020-12) as emitted for the table's responses. */
export type JsonSchema = { readonly [keyword: string]: unknown };

export interface Violation {
  /** Where in the value, e.g. ['summaries', 0, 'activeMrr']. */
  path: (string | number)[];
  message: string;
}

/** The keywords checkJson understands: every keyword zod's toJSONSchema emits for the responses. */
export const CHECKED_KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'anyOf',
  'minimum',
  'maximum',
  'propertyNames',
]);

const kindOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

function matchesType(type: string, v: unknown): boolean {
  switch (type) {
    case 'integer':
      return Number.isInteger(v);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'object':
      return kindOf(v) === 'object';
    default:
      return kindOf(v) === type;
  }
}

/**
 * The first place where `value` breaks `schema`, or undefined when it conforms. The CLI
 * checks responses with this instead of zod: the schemas are generated from the zod table
 * (response-schemas.ts), and a small interpreter costs nothing at start-up, where building
 * the zod schemas cost ~20 ms of every command.
 */
export function checkJson(schema: JsonSchema, value: unknown, path: (string | number)[] = []): Violation | undefined {
  const fail = (message: string): Violation => ({ path, message });
  if (schema.anyOf) {
    const options = schema.anyOf as JsonSchema[];
    if (!options.some((s) => checkJson(s, value, path) === undefined)) {
      // One option of the right type explains best what is wrong inside it.
      const typed = options.filter((s) => typeof s.type !== 'string' || matchesType(s.type, value));
      return typed.length === 1 ? checkJson(typed[0]!, value, path) : fail(`Invalid input: no allowed shape matches a ${kindOf(value)}`);
    }
  }
  if (schema.type !== undefined) {
    const types = (Array.isArray(schema.type) ? schema.type : [schema.type]) as string[];
    if (!types.some((t) => matchesType(t, value))) return fail(`Invalid input: expected ${types.join(' or ')}, received ${kindOf(value)}`);
  }
  if (schema.enum && !(schema.enum as unknown[]).includes(value)) {
    return fail(`Invalid option: expected one of ${(schema.enum as unknown[]).map((e) => JSON.stringify(e)).join('|')}`);
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) return fail(`Too small: expected number to be >=${schema.minimum}`);
    if (typeof schema.maximum === 'number' && value > schema.maximum) return fail(`Too big: expected number to be <=${schema.maximum}`);
  }
  if (Array.isArray(value) && schema.items) {
    for (let i = 0; i < value.length; i++) {
      const v = checkJson(schema.items as JsonSchema, value[i], [...path, i]);
      if (v) return v;
    }
  }
  if (kindOf(value) === 'object') return checkObject(schema, value as Record<string, unknown>, path);
  return undefined;
}

function checkObject(schema: JsonSchema, value: Record<string, unknown>, path: (string | number)[]): Violation | undefined {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  for (const key of (schema.required ?? []) as string[]) {
    if (!Object.hasOwn(value, key)) return { path: [...path, key], message: 'Invalid input: expected a value, received undefined' };
  }
  for (const [key, v] of Object.entries(value)) {
    const own = Object.hasOwn(properties, key) ? properties[key] : undefined;
    const rule = own ?? (schema.additionalProperties as JsonSchema | boolean | undefined);
    if (rule === false) return { path: [...path, key], message: 'Unrecognized key' };
    if (schema.propertyNames) {
      const bad = checkJson(schema.propertyNames as JsonSchema, key, [...path, key]);
      if (bad) return bad;
    }
    if (rule && rule !== true) {
      const bad = checkJson(rule, v, [...path, key]);
      if (bad) return bad;
    }
  }
  return undefined;
}
