import { UUID_PATTERN } from '../../../api/vocabulary.js';
import type { CollectionName } from '../../store/schema.js';

/**
 * The fixture fields that must hold UUIDs (docs/fixtures.md "Ids"): the ones the published API
 * types as uuid (the service spec's BusinessEntity, RevenueRecord, ContentListener, SocialPost
 * and every website_id), so that what a fixture seeds can be addressed by `cr` and by a plan
 * (`cr posts schedule --from` takes uuids only: src/bulk/validate.ts). Other ids (users,
 * agencies, api keys, campaigns…) are any non-empty strings, as the store keeps them.
 */
export const UUID_FIELDS: Partial<Record<CollectionName, readonly string[]>> = {
  websites: ['id'],
  social_posts: ['id'],
  business_entities: ['id', 'owner_id'],
  revenue_records: ['id', 'entity_id', 'product_line_id'],
  content_listeners: ['id'],
};

/** A website is addressed by its uuid wherever a record names one. */
const WEBSITE_FIELDS = ['websiteId', 'website_id'] as const;

/** The fields of a collection's records that must be UUIDs when they hold a string. */
export const uuidFieldsOf = (c: CollectionName): readonly string[] => [...(UUID_FIELDS[c] ?? []), ...WEBSITE_FIELDS];

const EXAMPLE = '3b2f8c1d-6e4a-4f7b-a2d9-1c5e8b7f0e91';

/** A value quoted for a message, cut to 80 characters with its length named. */
const shown = (v: string) => (v.length > 80 ? `${JSON.stringify(v.slice(0, 80))}… (${v.length} characters)` : JSON.stringify(v));

/**
 * The message for a field that should hold a uuid and does not; undefined when it does (or
 * holds no string: the store's schema reports a wrong type, null is "none" where allowed).
 */
export function uuidProblem(c: CollectionName, field: string, value: unknown): string | undefined {
  if (typeof value !== 'string' || UUID_PATTERN.test(value)) return undefined;
  const what = field === 'id' ? `ids of ${c}` : field === 'websiteId' || field === 'website_id' ? 'website ids' : `${field} values`;
  return `expected a UUID such as ${EXAMPLE}, got ${shown(value)} (the API's ${what} are UUIDs: docs/fixtures.md "Ids")`;
}

type JsonSchema = Record<string, unknown>;

/**
 * Marks the uuid fields in the fixture JSON Schema (`format: "uuid"`), so `cr local seed
 * --schema` states the rule the seed applies. A collection's records are inline or a $ref.
 */
export function markUuidFields(schema: JsonSchema): JsonSchema {
  const defs = (schema.$defs ?? {}) as Record<string, JsonSchema>;
  const props = schema.properties as Record<string, JsonSchema>;
  for (const [c, list] of Object.entries(props)) {
    let items = list.items as JsonSchema | undefined;
    if (items?.$ref) items = defs[String(items.$ref).replace('#/$defs/', '')];
    const fields = items?.properties as Record<string, JsonSchema> | undefined;
    if (!fields) continue;
    for (const f of uuidFieldsOf(c as CollectionName)) if (fields[f]) fields[f] = { ...fields[f], format: 'uuid' };
  }
  return schema;
}
