import { UsageError } from '../errors.js';
import { queryConfigIssues, type SourceType } from '../api/listener-rules.js';

/** Keys that are arrays in every source's query_config, even when given once. */
const ALWAYS_ARRAY = new Set(['keywords']);

/**
 * `--query key=value` pairs → query_config. A repeated key builds an array (in order);
 * `keywords` is always an array. Values stay strings: the API's keys are all text.
 */
export function parseQueryPairs(pairs: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--query expects key=value, got "${pair}"`);
    const key = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1);
    if (['__proto__', 'constructor', 'prototype'].includes(key)) throw new UsageError(`--query key "${key}" is not allowed`);
    const prev = out[key];
    if (prev === undefined) out[key] = ALWAYS_ARRAY.has(key) ? [value] : value;
    else out[key] = Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}

/** `--query-json` must be a JSON object. */
export function parseQueryJson(text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--query-json is not valid JSON: ${(e as Error).message}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new UsageError('--query-json must be a JSON object, like \'{"subreddit":"node"}\'');
  return parsed as Record<string, unknown>;
}

/** --query-json first, then --query pairs on top (a pair replaces the same key). */
export function buildQueryConfig(pairs: readonly string[], json?: string): Record<string, unknown> {
  return { ...(json ? parseQueryJson(json) : {}), ...parseQueryPairs(pairs) };
}

/** The server's source-specific check, run before sending; exit 2 with its message. */
export function checkQueryConfig(source: SourceType, config: Record<string, unknown>): void {
  const issues = queryConfigIssues(source, config);
  if (issues.length) {
    throw new UsageError(issues.map((i) => `${i.path}: ${i.message}`).join('; '), 'pass the keys with --query key=value or --query-json; nothing was sent');
  }
}
