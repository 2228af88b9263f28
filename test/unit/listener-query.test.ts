import { describe, expect, it } from 'vitest';
import { buildQueryConfig, checkQueryConfig, parseQueryJson, parseQueryPairs } from '../../src/cli/listener-query.js';
import { UsageError } from '../../src/errors.js';

describe('parseQueryPairs', () => {
  it('builds strings, and arrays from repeated keys', () => {
    expect(parseQueryPairs(['subreddit=node', 'flair=a', 'flair=b', 'flair=c'])).toEqual({ subreddit: 'node', flair: ['a', 'b', 'c'] });
  });
  it('makes keywords an array even when given once', () => {
    expect(parseQueryPairs(['keywords=acme'])).toEqual({ keywords: ['acme'] });
    expect(parseQueryPairs(['keywords=acme', 'keywords=acme launch'])).toEqual({ keywords: ['acme', 'acme launch'] });
  });
  it('keeps = signs inside the value', () => {
    expect(parseQueryPairs(['feed_url=https://x.example/feed?a=1&b=2'])).toEqual({ feed_url: 'https://x.example/feed?a=1&b=2' });
  });
  it.each(['novalue', '=x', '__proto__=1'])('refuses %j', (pair) => {
    expect(() => parseQueryPairs([pair])).toThrow(UsageError);
  });
});

describe('query-json and merging', () => {
  it('requires a JSON object', () => {
    expect(() => parseQueryJson('[1]')).toThrow(/JSON object/);
    expect(() => parseQueryJson('{nope')).toThrow(/not valid JSON/);
    expect(parseQueryJson('{"board":"b"}')).toEqual({ board: 'b' });
  });
  it('lets --query pairs win over --query-json', () => {
    expect(buildQueryConfig(['handle=acme'], '{"handle":"old","keywords":["x"]}')).toEqual({ handle: 'acme', keywords: ['x'] });
  });
});

describe('checkQueryConfig (same rules and message as the server)', () => {
  it('accepts the source-specific keys', () => {
    expect(() => checkQueryConfig('reddit', { subreddit: 'node' })).not.toThrow();
    expect(() => checkQueryConfig('rss', { feed_url: 'https://example.com/feed.xml' })).not.toThrow();
    expect(() => checkQueryConfig('x', { handle: 'acme' })).not.toThrow();
  });
  it('names the missing keys', () => {
    expect(() => checkQueryConfig('reddit', { flair: 'a' })).toThrow('query_config: A listener with source_type reddit requires query_config.subreddit or query_config.keywords');
    expect(() => checkQueryConfig('google_news', {})).toThrow(/query_config.keywords/);
  });
  it('checks rss feed URLs and keyword arrays', () => {
    expect(() => checkQueryConfig('rss', { feed_url: 'ftp://example.com/x' })).toThrow(/http or https/);
    expect(() => checkQueryConfig('quora', { keywords: [''] })).toThrow(/non-empty/);
  });
});
