import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openForServing } from '../../src/server/open-for-serving.js';
import type { ServedStore } from '../../src/server/open-for-serving.js';
import { inProcessServer, IN_PROCESS_ORIGIN } from '../../src/server/transport/in-process.js';
import { createApp } from '../../src/server/transport/fetch-handler.js';
import { fixedClock } from '../../src/server/domain/clock.js';
import { InProcessDispatcher } from '../../src/local/in-process-dispatcher.js';
import { KEYS, NOW, fixtureStore, startFixtureServer } from './helpers.js';
import type { TestServer } from './helpers.js';
import { parseRawResponse, rawExchange } from '../reliability/support.js';

/**
 * Requests a browser never sends, through each carrier of the request pipeline
 * (src/server/app/pipeline.ts): raw bytes to `cr serve`'s socket (its listener), the Fetch handler
 * (src/server/transport/fetch-handler.ts) and --local's in-process dispatcher. What one carrier answers,
 * the others answer alike, with the envelope, Date and one log line (docs/api-decisions.md §1, §8).
 */
const V = '/api/v1';
const SUMMARY = `${V}/finance/summary`;
const FORBIDDEN = { success: false, error: 'Forbidden host or origin', code: 'FORBIDDEN' };
const BOGUS = `cr_${'0'.repeat(40)}`;

let http: TestServer;
let port: number;
const lines: string[] = [];
const internal: unknown[] = [];
let local: ServedStore;
let dispatcher: InProcessDispatcher;
let cleanupLocal: () => Promise<void>;

beforeAll(async () => {
  http = await startFixtureServer({ log: (line) => lines.push(line), onInternalError: (err) => internal.push(err) });
  port = http.port;
  const s = await fixtureStore();
  cleanupLocal = s.cleanup;
  local = await openForServing(s.path, { clock: fixedClock(NOW), notice: () => {}, onInternalError: (err) => internal.push(err) });
  dispatcher = new InProcessDispatcher(inProcessServer(local.operations, (err) => internal.push(err)));
});

afterAll(async () => {
  await http?.stop();
  await local?.close();
  await cleanupLocal?.();
});

/** One exchange over the socket; the log lines it wrote (timestamps cut off). */
async function raw(text: string) {
  const before = lines.length;
  const res = parseRawResponse((await rawExchange(port, text)).text);
  // The log line is written when the answer is; give the event loop a turn.
  await new Promise((r) => setImmediate(r));
  return { ...res, json: res.body ? JSON.parse(res.body) : undefined, log: lines.slice(before).map((l) => l.replace(/^\S+ /, '').replace(/ \d+ms /, ' ')) };
}

async function inProcess(method: string, path: string, headers: Record<string, string> | string[]) {
  const res = await dispatcher.request({ origin: IN_PROCESS_ORIGIN, path, method: method as 'GET', headers });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers as Record<string, string>, json: text ? JSON.parse(text) : undefined };
}

describe('socket carrier: the request target and Host as RFC 9112 reads them', () => {
  it('an absolute-form target is judged by its own authority: a foreign one is the 403, logged under its path', async () => {
    const res = await raw(`GET http://evil.example${SUMMARY} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${KEYS.adminW1}\r\nConnection: close\r\n\r\n`);
    expect(res.status).toBe(403);
    expect(res.json).toEqual(FORBIDDEN);
    expect(res.headers.date).toBe(new Date(NOW).toUTCString());
    expect(res.log).toEqual([`GET ${SUMMARY} 403 key=-`]);
  });

  it('an absolute-form target naming the server is answered, and logged, like its origin form', async () => {
    const res = await raw(`GET http://127.0.0.1:${port}${SUMMARY} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${KEYS.adminW1}\r\nConnection: close\r\n\r\n`);
    expect(res.status).toBe(200);
    expect(res.headers['x-ratelimit-limit']).toBe('1000');
    expect(res.log).toHaveLength(1);
    expect(res.log[0]).toMatch(new RegExp(`^GET ${SUMMARY} 200 key=`));
  });

  for (const version of ['1.1', '1.0']) {
    it(`HTTP/${version} without a Host: the 403 envelope with Date and one log line, never Node's bare 400 or an answer`, async () => {
      const res = await raw(`GET ${SUMMARY} HTTP/${version}\r\nAuthorization: Bearer ${KEYS.adminW1}\r\nConnection: close\r\n\r\n`);
      expect(res.status).toBe(403);
      expect(res.json).toEqual(FORBIDDEN);
      expect(res.headers.date).toBe(new Date(NOW).toUTCString());
      expect(res.log).toEqual([`GET ${SUMMARY} 403 key=-`]);
    });
  }

  it('two Host headers, the first allowed: no allowed host (403), on table and escaped paths alike', async () => {
    for (const path of [SUMMARY, `${V}/finance/%73ummary`]) {
      const res = await raw(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nHost: evil.example\r\nAuthorization: Bearer ${KEYS.adminW1}\r\nConnection: close\r\n\r\n`);
      expect(res.status, path).toBe(403);
      expect(res.json, path).toEqual(FORBIDDEN);
    }
  });
});

describe('socket carrier: bytes Node refuses mid-body', () => {
  it('bad chunked framing: the client gets the 400 envelope, and the log line says 400 too (not 499), on table and escaped paths', async () => {
    for (const path of [`${V}/content/listeners`, `${V}/content/%6cisteners`]) {
      const count = internal.length;
      const res = await raw(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${KEYS.editorW1}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      );
      await new Promise((r) => setTimeout(r, 50));
      expect(res.status, path).toBe(400);
      expect(res.json, path).toEqual({ success: false, error: 'Bad request', code: 'BAD_REQUEST' });
      expect(lines.slice(-1)[0], path).toMatch(new RegExp(` POST ${V}/content/listeners 400 `));
      expect(internal.length, path).toBe(count);
    }
  });
});

describe('every carrier: two Authorization headers are no key, whichever comes first', () => {
  const challenge = 'Bearer realm="cr", error="invalid_token"';
  for (const [first, second] of [
    [KEYS.adminW1, BOGUS],
    [BOGUS, KEYS.adminW1],
  ]) {
    it(`${first === BOGUS ? 'bogus then valid' : 'valid then bogus'}: 401 over the socket, the Fetch handler and --local`, async () => {
      for (const path of [SUMMARY, `${V}/finance/%73ummary`]) {
        const overSocket = await raw(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${first}\r\nAuthorization: Bearer ${second}\r\nConnection: close\r\n\r\n`);
        expect(overSocket.status, path).toBe(401);
        expect(overSocket.headers['www-authenticate'], path).toBe(challenge);
        const local = await inProcess('GET', path, ['authorization', `Bearer ${first}`, 'authorization', `Bearer ${second}`]);
        expect(local.status, path).toBe(401);
        expect(local.headers['www-authenticate'], path).toBe(challenge);
      }
      const headers = new Headers({ host: 'localhost' });
      headers.append('authorization', `Bearer ${first}`);
      headers.append('authorization', `Bearer ${second}`);
      const app = createApp({ store: local.operations.store, operations: local.operations, onInternalError: () => {} });
      const viaFetch = await app.fetch(new Request(`http://localhost${SUMMARY}`, { headers }));
      expect(viaFetch.status).toBe(401);
    });
  }
});

describe('Fetch handler: a client gone mid-upload', () => {
  it('is a network error, not an answer, and no internal error', async () => {
    const before = internal.length;
    const app = createApp({ store: local.operations.store, operations: local.operations, onInternalError: (err) => internal.push(err) });
    const aborter = new AbortController();
    // A body whose client goes away after its first chunk, as a host reports it: the signal aborts, the stream fails.
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"name":'));
      },
      pull(controller) {
        aborter.abort();
        controller.error(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
      },
    });
    const request = new Request(`http://localhost${V}/content/ads/creatives/create`, {
      method: 'POST',
      headers: { host: 'localhost', authorization: `Bearer ${KEYS.adminW1}`, 'content-type': 'application/json' },
      body,
      duplex: 'half',
      signal: aborter.signal,
    } as RequestInit);
    const res = await app.fetch(request);
    expect(res.type).toBe('error');
    expect(internal.length).toBe(before);
  });
});

describe('--local answers what cr serve answers', () => {
  it('TRACE on an escaped table path: 405 with Allow, as over HTTP, and no internal error', async () => {
    const count = internal.length;
    const path = `${V}/finance/%73ummary`;
    const overSocket = await raw(`TRACE ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${KEYS.adminW1}\r\nConnection: close\r\n\r\n`);
    const local = await inProcess('TRACE', path, { authorization: `Bearer ${KEYS.adminW1}` });
    expect(overSocket.status).toBe(405);
    expect(local.status).toBe(405);
    expect(local.headers.allow).toBe(overSocket.headers.allow);
    expect(local.json).toEqual(overSocket.json);
    expect(internal.length).toBe(count);
  });

  it('a throw inside a handler, on a table path and an escaped one: 500 with nothing of it, reported once, one log line', async () => {
    const original = local.operations.store.crmAgents.bind(local.operations.store);
    const originalHttp = http.operations.store.crmAgents.bind(http.operations.store);
    const boom = () => {
      throw new Error('secret internal detail');
    };
    (local.operations.store as { crmAgents: unknown }).crmAgents = boom;
    (http.operations.store as { crmAgents: unknown }).crmAgents = boom;
    try {
      for (const path of [`${V}/integrations/crm/agents`, `${V}/integrations/crm/%61gents`]) {
        const count = internal.length;
        const overSocket = await raw(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${KEYS.adminW1}\r\nConnection: close\r\n\r\n`);
        expect(overSocket.status, path).toBe(500);
        expect(overSocket.body, path).not.toContain('secret');
        expect(overSocket.log, path).toHaveLength(1);
        expect(internal.length, path).toBe(count + 1);
        const viaLocal = await inProcess('GET', path, { authorization: `Bearer ${KEYS.adminW1}` });
        expect(viaLocal.status, path).toBe(500);
        expect(viaLocal.json, path).toEqual({ success: false, error: 'Internal error', code: 'INTERNAL_ERROR' });
        expect(internal.length, path).toBe(count + 2);
      }
    } finally {
      (local.operations.store as { crmAgents: unknown }).crmAgents = original;
      (http.operations.store as { crmAgents: unknown }).crmAgents = originalHttp;
    }
  });

  it('a throw in a route of the table (its handler fails to load): 500 with nothing of it, reported once', async () => {
    const reported: unknown[] = [];
    const failing = { path: `${V}/openapi.json`, answer: () => Promise.reject(new Error('secret internal detail')) };
    const broken = new InProcessDispatcher(inProcessServer(local.operations, (err) => reported.push(err), [failing]));
    const res = await broken.request({ origin: IN_PROCESS_ORIGIN, path: `${V}/openapi.json`, method: 'GET' });
    const text = await res.body.text();
    expect(res.statusCode).toBe(500);
    expect(text).not.toContain('secret');
    expect(reported).toHaveLength(1);
  });
});
