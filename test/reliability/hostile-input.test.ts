import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { IDS, KEYS, OPS, V, keepAliveClient, pool, startFixtureServer } from './support.js';
import { soak } from '../helpers/soak.js';
import type { TestServer } from '../server/helpers.js';

/**
 * Item 6: 10,000 generated hostile requests (2,000 in `npm test`; HOSTILE_RUNS sets any count) (malformed JSON, wrong types, huge numbers, deep
 * nesting, __proto__/constructor keys, invalid UTF-8, wrong content types, odd query strings
 * and paths, JSON-RPC-shaped garbage for MCP) against a real server on 127.0.0.1:0, run in
 * this process so that prototype pollution would be visible here.
 */
const RUNS = Number(process.env.HOSTILE_RUNS ?? soak(2_000, 10_000));
const SEED = Number(process.env.HOSTILE_SEED ?? Date.now() % 2 ** 31);

let srv: TestServer;
beforeAll(async () => {
  srv = await startFixtureServer({ rateLimit: 10_000_000 });
});
afterAll(async () => {
  await srv?.stop();
});

interface Hostile {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

const TOOLS = OPS.map((o) => o.operationId);
const FIELDS = [
  'name',
  'ad_format',
  'destination_url',
  'website_id',
  'campaign_id',
  'headline',
  'description',
  'image_urls',
  'product_line_id',
  'platform',
  'source_type',
  'query_config',
  'poll_interval',
  'keywords',
  'feed_url',
  'subreddit',
  'scheduled_at',
  'id',
  'limit',
  'offset',
  'status',
  'dimension_type',
  'keyword',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '',
];
const QUERY_KEYS = [
  'website_id',
  'limit',
  'offset',
  'status',
  'dimension_type',
  'keyword',
  '__proto__',
  'constructor',
  '__proto__[polluted]',
  'constructor[prototype][polluted]',
  'limit[]',
  'a[b][c]',
  'toString',
  '',
];

const hugeNumber = fc.constantFrom(
  '1e309',
  '-1e309',
  '99999999999999999999999999999',
  '-0',
  '1e-400',
  '0x10',
  'NaN',
  'Infinity',
  '9007199254740993',
  '1.7976931348623157e308',
  '-1',
  '201',
  '0',
  '1.5',
);
const oddString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '%',
    '%zz',
    '%00',
    '%C0%AF',
    '%ED%A0%80',
    '..',
    '../..',
    '\u0000',
    '\uFEFF',
    '💥',
    'x'.repeat(300),
    IDS.W1,
    IDS.W3,
    'javascript:alert(1)',
    'data:text/html,x',
    'http://[::1',
    'https://ok.example/',
  ),
);

/** JSON values with hostile keys and wrong types. */
const { hostileValue } = fc.letrec((tie) => ({
  hostileValue: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.double(),
    fc.integer(),
    oddString,
    fc.array(tie('hostileValue'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...FIELDS), tie('hostileValue'), { maxKeys: 5 }),
  ),
}));

const jsonText = (v: unknown) => JSON.stringify(v) ?? 'null';
const pollutionPayload = fc.constantFrom(
  '{"__proto__":{"polluted":"yes"},"name":"p","source_type":"rss","query_config":{"feed_url":"https://f.example/","__proto__":{"polluted":"yes"}}}',
  '{"constructor":{"prototype":{"polluted":"yes"}},"name":"p","ad_format":"single_image","destination_url":"https://a.example/"}',
  '{"scheduled_at":"2099-01-01T00:00:00Z","__proto__":{"polluted":"yes","isAdmin":true}}',
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"createContentListener","arguments":{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"name":"p","source_type":"rss","query_config":{"feed_url":"https://f.example/"}}}}',
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"__proto__":{"polluted":"yes"},"name":"listLearnings","arguments":{"__proto__":{"polluted":"yes"}}}}',
  '[{"__proto__":{"polluted":"yes"}}]',
);
const hugeNumberBody = fc.tuple(fc.constantFrom(...FIELDS), hugeNumber).map(([k, n]) => `{"${k}": ${n}, "name": ${n}, "limit": ${n}}`);
const deepBody = fc.tuple(fc.integer({ min: 1, max: 20_000 }), fc.constantFrom('[', '{"a":')).map(([n, open]) => open.repeat(n) + '1' + (open === '[' ? ']' : '}').repeat(n));
const malformedJson = fc.oneof(
  fc.constantFrom(
    '{',
    '}',
    '{"a":',
    '{"a":1,}',
    "{'a':1}",
    '[1,2',
    'nul',
    'tru',
    '{"a":1}{"b":2}',
    '\u0000',
    '{"a":"\\x00"}',
    '{"a":"\\ud800"}',
    '"unterminated',
    '{"a":01}',
    '{"a":.5}',
    '{"a":+1}',
    '/* c */ {}',
  ),
  fc.string({ maxLength: 200 }),
  hostileValue.map((v) => jsonText(v).slice(0, -1)),
);
/** Raw byte bodies: invalid UTF-8 inside and outside JSON strings. */
const invalidUtf8 = fc
  .tuple(fc.uint8Array({ minLength: 1, maxLength: 64 }), fc.constantFrom(0xff, 0xfe, 0xc0, 0xed, 0x80))
  .map(([bytes, bad]) =>
    Buffer.concat([Buffer.from('{"name":"'), Buffer.from([bad, 0xa0, 0x80]), Buffer.from(bytes), Buffer.from('","source_type":"rss","query_config":{"feed_url":"https://f.example/"}}')]),
  );
const jsonRpcGarbage = fc
  .record(
    {
      jsonrpc: fc.oneof(fc.constant('2.0'), fc.constant('1.0'), hostileValue),
      id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constant(null), hostileValue),
      method: fc.oneof(
        fc.constantFrom('tools/call', 'tools/list', 'initialize', 'ping', 'notifications/initialized', 'resources/list', 'prompts/get', 'logging/setLevel', ''),
        fc.string({ maxLength: 20 }),
      ),
      params: fc.oneof(
        fc.record(
          {
            name: fc.oneof(fc.constantFrom(...TOOLS, '__proto__', 'constructor', 'toString'), fc.string({ maxLength: 20 })),
            arguments: fc.oneof(hostileValue, fc.dictionary(fc.constantFrom(...FIELDS), hostileValue, { maxKeys: 6 })),
          },
          { requiredKeys: [] },
        ),
        hostileValue,
      ),
    },
    { requiredKeys: [] },
  )
  .chain((msg) => fc.oneof(fc.constant(jsonText(msg)), fc.constant(jsonText([msg, msg])), fc.constant('[]')));

const bodyText = fc.oneof(
  { arbitrary: hostileValue.map(jsonText), weight: 4 },
  { arbitrary: malformedJson, weight: 3 },
  { arbitrary: hugeNumberBody, weight: 1 },
  { arbitrary: deepBody, weight: 1 },
  { arbitrary: pollutionPayload, weight: 2 },
  { arbitrary: fc.dictionary(fc.constantFrom(...FIELDS), hostileValue, { maxKeys: 8 }).map(jsonText), weight: 4 },
);
const body = fc.oneof(
  { arbitrary: bodyText.map((t) => Buffer.from(t)), weight: 10 },
  { arbitrary: invalidUtf8, weight: 2 },
  { arbitrary: fc.uint8Array({ maxLength: 256 }).map((b) => Buffer.from(b)), weight: 1 },
  { arbitrary: fc.constant(Buffer.alloc(0)), weight: 1 },
);

const knownPaths = [...OPS.map((o) => V + o.path), `${V}/mcp`, `${V}/openapi.json`];
const segment = fc.oneof(
  fc.constantFrom(
    'api',
    'v1',
    'mcp',
    'social',
    'posts',
    'schedule',
    'finance',
    'summary',
    '..',
    '.',
    '',
    '%2e%2e',
    '%2F',
    '%00',
    '%zz',
    '%ED%A0%80',
    '__proto__',
    'constructor',
    'prototype',
    IDS.postDraft,
    IDS.postDraftW3,
    'x'.repeat(500),
    '%F0%9F%92%A5',
    ';a=b',
    ':id',
    '*',
    '~',
  ),
  fc.stringMatching(/^[A-Za-z0-9._~!$&'()*+,;=:@-]{0,30}$/),
);
const path = fc.oneof(
  { arbitrary: fc.constantFrom(...knownPaths), weight: 8 },
  { arbitrary: fc.tuple(segment).map(([id]) => `${V}/social/posts/${id}/schedule`), weight: 2 },
  { arbitrary: fc.array(segment, { maxLength: 6 }).map((s) => `${V}/${s.join('/')}`), weight: 2 },
  { arbitrary: fc.array(segment, { maxLength: 6 }).map((s) => `/${s.join('/')}`), weight: 1 },
  {
    arbitrary: fc.constantFrom(
      '/',
      '//',
      '///api/v1/finance/summary',
      '/api/v1/finance/summary/',
      '/API/V1/FINANCE/SUMMARY',
      '/api/v1/./finance/summary',
      '/api/v1/finance/../finance/summary',
      '/api/v1//mcp',
      '/api/v1/mcp/',
      '*',
    ),
    weight: 1,
  },
);
const queryPart = fc
  .tuple(fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.string({ maxLength: 10 })), fc.oneof(hugeNumber, oddString))
  .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
const query = fc.oneof(
  fc.constant(''),
  fc.array(queryPart, { maxLength: 6 }).map((p) => `?${p.join('&')}`),
  fc.constantFrom('?', '??', '?&&&', '?=', '?==&=', '?%', '?limit=%zz', '?website_id', '?limit=1&limit=2&limit=3', '?__proto__[polluted]=1', '?a=%00&b=%ff'),
);
const contentType = fc.constantFrom(
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/json-patch+json',
  '*/*',
  'garbage',
  '',
);
const auth = fc.constantFrom(
  `Bearer ${KEYS.editorW1}`,
  `Bearer ${KEYS.editorW1}`,
  `Bearer ${KEYS.adminW1}`,
  `Bearer ${KEYS.editorAgency}`,
  `Bearer ${KEYS.viewerW1}`,
  undefined,
  'Bearer',
  `Bearer ${KEYS.revoked}`,
  'Bearer cr_zz',
  `bearer ${KEYS.editorW1}`,
);
/** A request path with its dot segments resolved, as the server's URL parsing does. */
function resolvedPath(path: string): string {
  try {
    return new URL(`http://127.0.0.1${path}`).pathname;
  } catch {
    return path;
  }
}

const accept = fc.constantFrom(undefined, 'application/json, text/event-stream', 'application/json', 'text/event-stream', '*/*', 'text/html');
const method = fc.constantFrom('GET', 'POST', 'POST', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD');

const goodKey = fc.constantFrom(`Bearer ${KEYS.editorW1}`, `Bearer ${KEYS.adminW1}`, `Bearer ${KEYS.editorAgency}`, `Bearer ${KEYS.viewerAgency}`);
const hostile: fc.Arbitrary<Hostile> = fc.oneof(
  {
    // The right method on a known route with a valid key, so that validation and handlers see the garbage.
    weight: 5,
    arbitrary: fc.record({ op: fc.constantFrom(...OPS), id: fc.option(segment, { nil: undefined }), query, contentType, auth: goodKey, body }).map((r) => ({
      method: r.op.method,
      path: (r.id === undefined ? V + r.op.path : V + r.op.path.replace(IDS.postDraft, r.id)) + r.query,
      headers: { ...(r.contentType ? { 'content-type': r.contentType } : {}), authorization: r.auth },
      body: r.op.method === 'GET' ? undefined : r.body,
    })),
  },
  {
    weight: 3,
    arbitrary: fc.record({ method, path, query, contentType, auth, accept, body: fc.option(body, { nil: undefined }) }).map((r) => ({
      method: r.method,
      path: r.path + r.query,
      headers: { ...(r.contentType ? { 'content-type': r.contentType } : {}), ...(r.auth ? { authorization: r.auth } : {}), ...(r.accept ? { accept: r.accept } : {}) },
      body: r.method === 'GET' || r.method === 'HEAD' ? undefined : r.body,
    })),
  },
  {
    weight: 2,
    arbitrary: fc.record({ rpc: fc.oneof(jsonRpcGarbage, pollutionPayload, malformedJson), auth, accept, contentType, method: fc.constantFrom('POST', 'POST', 'POST', 'GET', 'DELETE') }).map((r) => ({
      method: r.method,
      path: `${V}/mcp`,
      headers: { ...(r.contentType ? { 'content-type': r.contentType } : {}), ...(r.auth ? { authorization: r.auth } : {}), ...(r.accept ? { accept: r.accept } : {}) },
      body: r.method === 'GET' ? undefined : Buffer.from(r.rpc),
    })),
  },
);

const isEnvelope = (b: any) =>
  b !== null &&
  typeof b === 'object' &&
  !Array.isArray(b) &&
  ((b.success === false && typeof b.error === 'string' && (b.code === undefined || typeof b.code === 'string')) || (b.success === true && 'data' in b));
const isJsonRpcMessage = (m: any) =>
  m !== null && typeof m === 'object' && m.jsonrpc === '2.0' && (('result' in m && !('error' in m)) || (typeof m.error?.code === 'number' && typeof m.error?.message === 'string'));

/** A full GC before reading RSS, so that growth means retained memory, not garbage not yet collected. */
setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;
const settledRss = async () => {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setImmediate(r));
  }
  return process.memoryUsage().rss;
};

const protoSnapshot = () => JSON.stringify([Object.prototype, Array.prototype, Function.prototype, String.prototype].map((p) => Object.getOwnPropertyNames(p).sort()));

describe('hostile input', () => {
  it(`${RUNS} generated hostile requests: no 5xx, every answer an envelope (or JSON-RPC on /mcp), no prototype pollution, bounded memory`, async () => {
    const samples = fc.sample(hostile, { numRuns: RUNS, seed: SEED });
    const protoBefore = protoSnapshot();
    const client = keepAliveClient(srv.url, 16);
    // Warm up (lazy imports of the MCP SDK and OpenAPI builder) before measuring memory.
    await pool(samples.slice(0, 1000), 16, async (s) => void (await client.send(s.method, s.path, { headers: s.headers, body: s.body }).catch(() => undefined)));
    const rssBefore = await settledRss();
    let rssPeak = rssBefore;
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    const t0 = performance.now();
    await pool(samples, 16, async (s, i) => {
      const res = await client.send(s.method, s.path, { headers: s.headers, body: s.body }).catch((e: Error) => ({ status: -1, text: e.message, json: undefined, headers: {} }));
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (i % 500 === 0) rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
      const describe = () => `#${i} ${s.method} ${s.path.slice(0, 200)} ${JSON.stringify(s.headers)} body=${s.body?.toString('utf8').slice(0, 200)} → ${res.status} ${res.text.slice(0, 300)}`;
      if (res.status < 200 || res.status >= 500) return void failures.push(describe());
      if (s.method === 'HEAD') return;
      // The server resolves dot segments as URL parsing does (`/api/v1/x/../mcp` is /mcp).
      const isMcp = /^\/api\/v1\/mcp$/.test(resolvedPath(s.path));
      if (isMcp && res.status === 202 && res.text === '') return; // a notification: accepted, no body
      const b = res.json;
      if (/^\/api\/v1\/openapi\.json(\?|$)/.test(s.path) && res.status === 200) {
        if (b?.openapi !== '3.1.0') failures.push(describe());
        return;
      }
      const ok = isEnvelope(b) || (isMcp && (isJsonRpcMessage(b) || (Array.isArray(b) && b.length > 0 && b.every(isJsonRpcMessage))));
      if (!ok) return void failures.push(describe());
      if (isEnvelope(b) && (b.success === true) !== (res.status === 200)) failures.push(describe());
    });
    const seconds = (performance.now() - t0) / 1000;
    client.close();
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    const rssAfter = await settledRss();
    const growthMb = (rssAfter - rssBefore) / 2 ** 20;
    console.log(
      `hostile input: seed ${SEED}, ${RUNS} requests in ${seconds.toFixed(1)} s, statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}, RSS after GC ${(rssBefore / 2 ** 20).toFixed(0)} → ${(rssAfter / 2 ** 20).toFixed(0)} MB (${growthMb >= 0 ? '+' : ''}${growthMb.toFixed(1)} MB; peak ${(rssPeak / 2 ** 20).toFixed(0)} MB)`,
    );
    expect(failures.slice(0, 10), `${failures.length} bad answers (seed ${SEED})`).toEqual([]);
    // No prototype pollution in the server's process (this one).
    expect(({} as any).polluted).toBeUndefined();
    expect(({} as any).isAdmin).toBeUndefined();
    expect(([] as any).polluted).toBeUndefined();
    expect(protoSnapshot()).toBe(protoBefore);
    // Nor in any record the requests created: every object in the store has a plain prototype.
    const oddProto: string[] = [];
    const walk = (v: unknown, at: string) => {
      if (v === null || typeof v !== 'object') return;
      const proto = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) oddProto.push(at);
      for (const [k, child] of Object.entries(v)) walk(child, `${at}.${k}`);
    };
    for (const c of ['content_listeners', 'ad_creatives', 'social_posts'] as const) for (const [i, r] of srv.store.list(c).entries()) walk(r, `${c}[${i}]`);
    expect(oddProto.slice(0, 5)).toEqual([]);
    expect(growthMb).toBeLessThan(50);
    // Still healthy.
    const again = keepAliveClient(srv.url, 1);
    const health = await again.send('GET', `${V}/finance/summary`, { headers: { authorization: `Bearer ${KEYS.viewerW1}` } });
    again.close();
    expect(health.status).toBe(200);
  }, 120_000);
});
