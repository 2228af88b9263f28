import * as z from 'zod';
import { dateTime, documentedEnum, websiteIdField } from './common.js';
import { POLL_INTERVALS, SOURCE_TYPES, queryConfigIssues } from '../listener-rules.js';
import { documentAs } from '../json-schema.js';
import { QUERY_CONFIGS, documentedListenerBody } from './query-configs.js';

export { SOURCE_TYPES, POLL_INTERVALS, POLL_INTERVAL_MS, REQUIRED_QUERY_KEYS, queryConfigIssues } from '../listener-rules.js';
export type { SourceType, PollInterval, QueryConfigIssue } from '../listener-rules.js';

export { QUERY_CONFIGS };

export const CreateListenerQuery = z.object({ website_id: websiteIdField() });

const listenerFields = {
  website_id: websiteIdField(),
  name: z.string().min(1).max(200).describe('Human-readable label'),
  poll_interval: z.enum(POLL_INTERVALS).default('24h').describe('How often the source is polled'),
};

/**
 * Validated field by field, so that a 400 names every offending path (docs/api-decisions.md §5), and
 * documented as the union keyed by source_type (§10) built from the same field schemas and
 * query_config shapes (query-configs.ts).
 */
export const CreateListenerBody = documentAs(
  z
    .object({
      website_id: listenerFields.website_id,
      name: listenerFields.name,
      source_type: z.enum(SOURCE_TYPES),
      query_config: z.record(z.string(), z.unknown()),
      poll_interval: listenerFields.poll_interval,
    })
    .superRefine(
      (body, ctx) => {
        for (const issue of queryConfigIssues(body.source_type, body.query_config)) {
          ctx.addIssue({ code: 'custom', path: issue.path.split('.'), message: issue.message });
        }
      },
      {
        // Also when other fields are wrong (decisions §5: details name each offending path),
        // as long as the two fields the rules read are themselves valid.
        when: ({ value }) => {
          const v = value as { source_type?: unknown; query_config?: unknown } | null;
          const config = v?.query_config;
          return (SOURCE_TYPES as readonly unknown[]).includes(v?.source_type) && !!config && typeof config === 'object' && !Array.isArray(config);
        },
      },
    ),
  documentedListenerBody(listenerFields),
);
export type CreateListenerBody = z.infer<typeof CreateListenerBody>;

export const ContentListener = z
  .looseObject({
    id: z.string(),
    websiteId: z.string(),
    name: z.string(),
    sourceType: documentedEnum(SOURCE_TYPES),
    queryConfig: z.record(z.string(), z.unknown()).describe('Source-specific query parameters, as given at creation'),
    pollInterval: documentedEnum(POLL_INTERVALS),
    nextPollAt: dateTime().nullable(),
    lastPolledAt: dateTime().nullable().describe('Null until the first poll (documented deviation: the published type is a string)'),
    lastItemCount: z.number().int(),
    enabled: z.boolean(),
    createdAt: dateTime(),
    updatedAt: dateTime(),
  })
  .meta({ id: 'ContentListener', description: 'A subscription to an external source that surfaces content opportunities' });
export type ContentListener = z.infer<typeof ContentListener>;
