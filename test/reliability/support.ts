/**
 * Shared pieces of the security and limits tests (docs/reliability.md, "Requests: input, limits and keys"): the
 * operations with a valid request each, a keep-alive HTTP client, raw sockets, MCP calls and
 * `cr serve` processes over any store path (test/helpers/serve.ts).
 */
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { BIN, ROOT, ensureBuilt, runBin } from '../helpers/cli.js';
import { type ServeProcess, spawnServe, stopServe } from '../helpers/serve.js';
import { IDS, readResponse, type Res } from '../server/helpers.js';
import { Store } from '../../src/server/store/store.js';

export { ensureBuilt, BIN, ROOT, runBin, spawnServe, stopServe };
/** A `cr serve` process (test/helpers/serve.ts). */
export type SpawnedServe = ServeProcess;
export { FIXTURE, IDS, KEYS, NOW, fixtureStore, request, startFixtureServer } from '../server/helpers.js';

export const V = '/api/v1';
export const FUTURE = '2025-07-01T09:00:00Z';
export const adBody = { ad_format: 'single_image', name: 'Summer creative', destination_url: 'https://acme.example/landing' };
export const listenerBody = { name: 'Feed', source_type: 'rss', query_config: { feed_url: 'https://feed.example/rss' } };

export interface Op {
  operationId: string;
  method: 'GET' | 'POST';
  /** Concrete path under /api/v1 (the schedule post is the fixture's W1 draft). */
  path: string;
  body?: Record<string, unknown>;
  write: boolean;
  /** MCP tool arguments equivalent to the REST call. */
  args: Record<string, unknown>;
  /** Owner-scoped (finance): no website parameter at all. */
  ownerScoped?: boolean;
}

/** Every operation of the endpoint table with a request that succeeds for the fixture's W1 keys. */
export const OPS: Op[] = [
  { operationId: 'getFinanceSummary', method: 'GET', path: '/finance/summary', write: false, args: {}, ownerScoped: true },
  { operationId: 'createAdCreative', method: 'POST', path: '/content/ads/creatives/create', body: adBody, write: true, args: { ...adBody } },
  { operationId: 'createContentListener', method: 'POST', path: '/content/listeners', body: listenerBody, write: true, args: { ...listenerBody } },
  {
    operationId: 'scheduleSocialPost',
    method: 'POST',
    path: `/social/posts/${IDS.postDraft}/schedule`,
    body: { scheduled_at: FUTURE },
    write: true,
    args: { id: IDS.postDraft, scheduled_at: FUTURE },
  },
  { operationId: 'listLearnings', method: 'GET', path: '/intelligence/learnings', write: false, args: {} },
  { operationId: 'listNurtureSequences', method: 'GET', path: '/content/nurture-sequences', write: false, args: {} },
  { operationId: 'getGbpVisibility', method: 'GET', path: '/gbp/visibility', write: false, args: {} },
  { operationId: 'listBrandSubjects', method: 'GET', path: '/brand/brand-subjects', write: false, args: {} },
  { operationId: 'listCrmAgents', method: 'GET', path: '/integrations/crm/agents', write: false, args: {} },
];

/** A response read whole (the same shape as the server tests' `request`). */
export type HttpRes = Res;

/** A keep-alive client for many requests to one server (bounded sockets). */
export function keepAliveClient(origin: string, maxSockets = 16) {
  const agent = new Agent({ keepAlive: true, maxSockets });
  const base = new URL(origin);
  const send = (method: string, path: string, o: { headers?: Record<string, string>; body?: Buffer | string } = {}): Promise<HttpRes> =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string> = { ...o.headers };
      const payload = o.body === undefined ? undefined : Buffer.isBuffer(o.body) ? o.body : Buffer.from(o.body);
      if (payload) headers['content-length'] = String(payload.length);
      const req = httpRequest({ host: base.hostname, port: base.port, method, path, headers, agent }, (res) => readResponse(res).then(resolve, reject));
      req.on('error', reject);
      req.end(payload);
    });
  return { send, close: () => agent.destroy() };
}

/** Runs `tasks` with at most `limit` in flight. */
export async function pool<T>(items: readonly T[], limit: number, fn: (item: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Writes raw bytes on a fresh TCP connection and collects everything until the server closes it. */
export function rawExchange(port: number, data: string | Buffer, timeoutMs = 5_000): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text: Buffer.concat(chunks).toString('utf8'), closed: false });
    }, timeoutMs);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (err) => {
      // A reset after the answer was written still counts as an answer.
      if (chunks.length) return;
      clearTimeout(timer);
      reject(err);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text: Buffer.concat(chunks).toString('utf8'), closed: true });
    });
    socket.write(data);
  });
}

/** Splits a raw HTTP/1.1 response into status, lower-cased headers and body. */
export function parseRawResponse(text: string): { status: number; headers: Record<string, string>; body: string } {
  const split = text.indexOf('\r\n\r\n');
  const head = split < 0 ? text : text.slice(0, split);
  const [statusLine, ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0), headers, body: split < 0 ? '' : text.slice(split + 4) };
}

export const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } as const;

/** One JSON-RPC tools/call over HTTP (stateless server: no initialize needed). */
export async function mcpCall(origin: string, authorization: string | undefined, name: string, args: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await fetch(`${origin}${V}/mcp`, {
    method: 'POST',
    headers: { ...MCP_HEADERS, ...(authorization === undefined ? {} : { authorization }), ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The ids of the listeners a store file holds, read by opening it. */
export async function storedListenerIds(path: string): Promise<Set<string>> {
  const st = await Store.open(path);
  try {
    return new Set(st.list('content_listeners').map((l) => l.id));
  } finally {
    await st.close();
  }
}
