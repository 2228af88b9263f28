import * as z from 'zod';
import { REQUIRED_QUERY_KEYS, SOURCE_TYPES, type SourceType } from '../listener-rules.js';

/**
 * The shape of query_config per source_type (docs/api-decisions.md §5), for the documents: OpenAPI
 * names one schema per source and documents the listener body as a union keyed by
 * source_type (§10); MCP tools offer the shapes as alternatives of query_config. The server
 * applies the same rules with queryConfigIssues (listener-rules.ts), which the CLI shares;
 * test/contract/query-config.test.ts checks that both accept and reject the same configs.
 */

const keywords = () => z.array(z.string().regex(/\S/)).min(1).describe('Search terms: a non-empty list of non-empty strings');

const FIELDS: Record<string, () => z.ZodType> = {
  keywords,
  subreddit: () => z.string().min(1).describe('Community name, without r/'),
  channel_id: () => z.string().min(1).describe('YouTube channel identifier'),
  feed_url: () => z.string().min(1).meta({ format: 'uri', pattern: '^https?://' }).describe('RSS or Atom feed URL, http or https'),
  company: () => z.string().min(1).describe('LinkedIn company name or page'),
  handle: () => z.string().min(1).describe('X account handle'),
  board: () => z.string().min(1).describe('Pinterest board'),
};

const pascal = (source: string) => source.replace(/(^|_)([a-z])/g, (_m, _u, c: string) => c.toUpperCase());

/**
 * "At least one of" is a union of one object per key, that key required and the others
 * optional: generated clients type it exactly (an anyOf of bare `required` lists beside the
 * properties becomes `unknown` in openapi-typescript).
 */
function configFor(source: SourceType): z.ZodType {
  const keys = REQUIRED_QUERY_KEYS[source];
  const shapeRequiring = (key: string) => Object.fromEntries(keys.map((k) => [k, k === key ? FIELDS[k]!() : FIELDS[k]!().optional()]));
  const needs = keys.length === 1 ? `needs ${keys[0]}` : `needs ${keys.join(' or ')} (at least one)`;
  const meta = { id: `${pascal(source)}QueryConfig`, description: `query_config of a ${source} listener: ${needs}; other keys are kept` };
  if (keys.length === 1) return z.looseObject(shapeRequiring(keys[0]!)).meta(meta);
  const [first, second, ...rest] = keys.map((k) => z.looseObject(shapeRequiring(k)));
  return z.union([first!, second!, ...rest]).meta(meta);
}

export const QUERY_CONFIGS = Object.fromEntries(SOURCE_TYPES.map((s) => [s, configFor(s)])) as Record<SourceType, z.ZodType>;

const variantId = (source: SourceType) => `Create${pascal(source)}ListenerRequest`;

/**
 * The listener body as documents show it: one object schema per source_type, each with its
 * own query_config shape, and an OpenAPI discriminator on source_type.
 */
export function documentedListenerBody(fields: Record<'website_id' | 'name' | 'poll_interval', z.ZodType>) {
  const variants = SOURCE_TYPES.map((source) =>
    z
      .object({
        website_id: fields.website_id,
        name: fields.name,
        source_type: z.literal(source),
        query_config: QUERY_CONFIGS[source],
        poll_interval: fields.poll_interval,
      })
      .meta({ id: variantId(source), description: `Body of POST /content/listeners for a ${source} source` }),
  );
  return z.discriminatedUnion('source_type', variants as unknown as [z.ZodObject, ...z.ZodObject[]]).meta({
    id: 'CreateContentListenerRequest',
    description: 'Body of POST /content/listeners: query_config depends on source_type (docs/api-decisions.md §5); unknown fields are ignored',
    discriminator: {
      propertyName: 'source_type',
      mapping: Object.fromEntries(SOURCE_TYPES.map((s) => [s, `#/components/schemas/${variantId(s)}`])),
    },
  });
}
