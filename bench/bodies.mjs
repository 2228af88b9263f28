/** The durable-write request bodies the benchmarks send (bench/run.mjs, bench/compare.mjs): request i's JSON. */
export const listenerBody = (i) =>
  JSON.stringify({ name: `bench listener ${i}`, source_type: 'reddit', query_config: { subreddit: 'smallbusiness', keywords: ['seo'] }, poll_interval: '6h' });

export const adBody = (websiteId) => (i) =>
  JSON.stringify({
    website_id: websiteId,
    name: `bench ad ${i}`,
    ad_format: 'single_image',
    destination_url: 'https://example.com/landing',
    headline: 'Bench headline',
    platform: 'meta',
  });
