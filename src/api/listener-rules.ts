/**
 * The listener vocabulary and the source-specific rules of query_config (docs/api-decisions.md §5),
 * without zod: the CLI checks a listener before sending it without loading the schemas,
 * and the server's schema (schemas/listeners.ts) applies the same rules.
 */
export const SOURCE_TYPES = ['reddit', 'youtube', 'google_news', 'google_search', 'rss', 'linkedin', 'x', 'pinterest', 'quora'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];
export const POLL_INTERVALS = ['1h', '6h', '12h', '24h', '7d'] as const;
export type PollInterval = (typeof POLL_INTERVALS)[number];

/** Milliseconds per poll interval; nextPollAt = createdAt + this. */
export const POLL_INTERVAL_MS: Record<PollInterval, number> = {
  '1h': 3_600_000,
  '6h': 21_600_000,
  '12h': 43_200_000,
  '24h': 86_400_000,
  '7d': 604_800_000,
};

/** Keys of query_config of which each source needs at least one (docs/api-decisions.md §5). */
export const REQUIRED_QUERY_KEYS: Record<SourceType, readonly string[]> = {
  reddit: ['subreddit', 'keywords'],
  youtube: ['channel_id', 'keywords'],
  google_news: ['keywords'],
  google_search: ['keywords'],
  quora: ['keywords'],
  rss: ['feed_url'],
  linkedin: ['keywords', 'company'],
  x: ['keywords', 'handle'],
  pinterest: ['keywords', 'board'],
};

export interface QueryConfigIssue {
  path: string;
  message: string;
}

/** Keys of query_config that hold one text value; keywords is a list and feed_url a URL. */
const TEXT_KEYS: ReadonlySet<string> = new Set(['subreddit', 'channel_id', 'company', 'handle', 'board']);

/** Written as the document states it (`pattern: ^https?://`, schemas/query-configs.ts), and parsable. */
function isHttpUrl(url: unknown): boolean {
  if (typeof url !== 'string' || !/^https?:\/\//.test(url)) return false;
  try {
    return ['http:', 'https:'].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}

/**
 * The source-specific rules of query_config, shared by the server's validation and the
 * CLI's pre-flight check so that both say the same thing. A key the source reads, when
 * given, must have the type the OpenAPI document states for it (schemas/query-configs.ts);
 * other keys are kept as they are.
 */
export function queryConfigIssues(source: SourceType, config: Record<string, unknown>): QueryConfigIssue[] {
  const issues: QueryConfigIssue[] = [];
  const keys = REQUIRED_QUERY_KEYS[source];
  if (!keys.some((k) => config[k] !== undefined)) {
    const wanted = keys.map((k) => `query_config.${k}`).join(' or ');
    issues.push({ path: 'query_config', message: `A listener with source_type ${source} requires ${wanted}` });
  }
  for (const key of keys) {
    const value = config[key];
    if (value === undefined) continue;
    if (TEXT_KEYS.has(key) && (typeof value !== 'string' || value === '')) {
      issues.push({ path: `query_config.${key}`, message: `${key} must be a non-empty string` });
    }
    if (key === 'keywords' && (!Array.isArray(value) || value.length === 0 || !value.every((k) => typeof k === 'string' && k.trim() !== ''))) {
      issues.push({ path: 'query_config.keywords', message: 'keywords must be a non-empty array of non-empty strings' });
    }
    if (key === 'feed_url' && !isHttpUrl(value)) issues.push({ path: 'query_config.feed_url', message: 'feed_url must be an http or https URL' });
  }
  return issues;
}
