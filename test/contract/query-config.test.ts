import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SOURCE_TYPES, queryConfigIssues, type SourceType } from '../../src/api/listener-rules.js';
import { buildOpenApiDocument } from '../../src/server/app/openapi.js';
import { type OpenApiDoc, ResponseValidator } from './openapi-validator.js';

/**
 * The document's query_config shape per source_type (docs/api-decisions.md §10) and the rules the
 * server and the CLI apply (listener-rules.ts, §5) accept and reject the same configs, over
 * generated configs of well-formed and broken values of every key a source reads. URLs are
 * drawn from plain ones: JSON Schema's `uri` and WHATWG URL parsing differ on exotic forms.
 */

const doc = buildOpenApiDocument() as unknown as OpenApiDoc;
const validator = new ResponseValidator(doc);
const documented = Object.fromEntries(
  SOURCE_TYPES.map((source) => {
    const variant = doc.components.schemas[`Create${source.replace(/(^|_)([a-z])/g, (_m, _u, c: string) => c.toUpperCase())}ListenerRequest`] as { properties: { query_config: unknown } };
    return [source, validator.validatorForSchema(variant.properties.query_config)];
  }),
) as unknown as Record<SourceType, (v: unknown) => boolean>;

const text = fc.constantFrom('node', 'Dentistry', 'UC_x5XG1OV2P6uZZ5FSM9Ttw', '@acme', ' spaced ', '', '  ');
const keywordList = fc.oneof(fc.array(fc.constantFrom('dentist', 'teeth whitening', '', ' ', '\t'), { maxLength: 3 }), fc.constant('dentist'));
const url = fc.constantFrom('https://news.example/feed.xml', 'http://acme.example/rss', 'ftp://files.example/feed', 'mailto:a@b.example', 'not a url', '');
const odd = fc.constantFrom(null, 0, 7, true, [], {}, ['x']);
const value = (gen: fc.Arbitrary<unknown>) => fc.option(fc.oneof({ weight: 4, arbitrary: gen }, { weight: 1, arbitrary: odd }), { nil: undefined, freq: 3 });

const config = fc.record(
  {
    subreddit: value(text),
    channel_id: value(text),
    company: value(text),
    handle: value(text),
    board: value(text),
    keywords: value(keywordList),
    feed_url: value(url),
    flair: value(text),
  },
  { requiredKeys: [] },
);

describe('query_config: the document and the server agree', () => {
  it('on generated configs of every source', () => {
    let accepted = 0;
    let rejected = 0;
    fc.assert(
      fc.property(fc.constantFrom(...SOURCE_TYPES), config, (source, raw) => {
        const cfg = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined));
        const server = queryConfigIssues(source, cfg).length === 0;
        const schema = documented[source](cfg);
        if (server) accepted++;
        else rejected++;
        expect(schema, `${source} ${JSON.stringify(cfg)}: server ${server ? 'accepts' : JSON.stringify(queryConfigIssues(source, cfg))}`).toBe(server);
      }),
      { numRuns: 4000, seed: 20261124 },
    );
    // Both outcomes are exercised often.
    expect(accepted).toBeGreaterThan(500);
    expect(rejected).toBeGreaterThan(500);
  });

  it.each(['https:news.example/feed', 'http:/news.example/feed', ' https://news.example/feed', 'HTTPS://news.example/feed'])(
    'feed_url %j, which the WHATWG parser takes, is refused by both',
    (feed_url) => {
      expect(documented.rss({ feed_url })).toBe(false);
      expect(queryConfigIssues('rss', { feed_url }).map((i) => i.path)).toEqual(['query_config.feed_url']);
    },
  );

  it('rss needs feed_url in both (the case generated clients got wrong)', () => {
    expect(documented.rss({})).toBe(false);
    expect(queryConfigIssues('rss', {}).map((i) => i.path)).toEqual(['query_config']);
    expect(documented.rss({ feed_url: 'https://news.example/feed.xml' })).toBe(true);
  });
});
