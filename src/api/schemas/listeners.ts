import { z } from 'zod';
import { websiteIdField } from './common.js';
import { POLL_INTERVALS, SOURCE_TYPES, queryConfigIssues } from '../listener-rules.js';

export { SOURCE_TYPES, POLL_INTERVALS, POLL_INTERVAL_MS, REQUIRED_QUERY_KEYS, queryConfigIssues } from '../listener-rules.js';
export type { SourceType, PollInterval, QueryConfigIssue } from '../listener-rules.js';

export const CreateListenerQuery = z.object({ website_id: websiteIdField() });

export const CreateListenerBody = z
  .object({
    website_id: websiteIdField(),
    name: z.string().min(1).max(200),
    source_type: z.enum(SOURCE_TYPES),
    query_config: z.record(z.string(), z.unknown()),
    poll_interval: z.enum(POLL_INTERVALS).default('24h'),
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
  );
export type CreateListenerBody = z.infer<typeof CreateListenerBody>;

export const ContentListener = z.looseObject({
  id: z.string(),
  websiteId: z.string(),
  name: z.string(),
  sourceType: z.string(),
  queryConfig: z.record(z.string(), z.unknown()),
  pollInterval: z.string(),
  nextPollAt: z.string().nullable(),
  lastPolledAt: z.string().nullable(),
  lastItemCount: z.number().int(),
  enabled: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ContentListener = z.infer<typeof ContentListener>;
