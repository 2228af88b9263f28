import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { cleanupTempDirs } from './tmp.js';

/** What the test server answers: a status, a body (object → JSON, string → as is), headers, a delay. */
export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Wait this long before answering (timeouts). */
  delayMs?: number;
  /** Drop the connection without an answer. */
  destroy?: boolean;
}

export interface RecordedRequest {
  method: string;
  /** Path and query, as received. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
  /** The body parsed as JSON, when it was JSON. */
  json?: unknown;
  /** Index of the TCP connection this request came on (0-based). */
  connection: number;
}

export type Handler = (req: RecordedRequest) => Reply;

export interface TestServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** origin + /api/v1: what a profile's base URL looks like. */
  baseUrl: string;
  port: number;
  requests: RecordedRequest[];
  /** Number of TCP connections accepted so far. */
  connections(): number;
  /** Sets the default answer (used when the queue is empty). */
  handle(handler: Handler | Reply): void;
  /** Answers the next requests in order, then falls back to the default handler. */
  queue(...replies: Reply[]): void;
  reset(): void;
  close(): Promise<void>;
}

export const ok = (data: unknown, extra: Record<string, unknown> = {}): Reply => ({ status: 200, body: { success: true, data, ...extra } });
export const fail = (status: number, error: string, code?: string, extra: Record<string, unknown> = {}): Reply => ({
  status,
  body: { success: false, error, ...(code ? { code } : {}), ...extra },
});

/**
 * A tiny scriptable HTTP server on 127.0.0.1:0 for what a real API server cannot produce
 * on demand (timeouts, 503s, malformed bodies) and to see exactly what the client sent.
 */
export async function startTestServer(handler: Handler | Reply = ok({})): Promise<TestServer> {
  let current: Handler = typeof handler === 'function' ? handler : () => handler;
  const pending: Reply[] = [];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const connectionIds = new WeakMap<Socket, number>();
  let connectionCount = 0;

  const answer = (res: ServerResponse, reply: Reply) => {
    if (reply.destroy) {
      res.socket?.destroy();
      return;
    }
    const raw = reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(reply.headers ?? {}) };
    res.writeHead(reply.status ?? 200, headers);
    res.end(raw);
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      let json: unknown;
      try {
        json = body ? JSON.parse(body) : undefined;
      } catch {
        json = undefined;
      }
      const rec: RecordedRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
        json,
        connection: connectionIds.get(req.socket) ?? -1,
      };
      requests.push(rec);
      const reply = pending.length ? pending.shift()! : current(rec);
      if (reply.delayMs) {
        const t = setTimeout(() => {
          timers.delete(t);
          if (!res.destroyed && !res.socket?.destroyed) answer(res, reply);
        }, reply.delayMs);
        timers.add(t);
      } else {
        answer(res, reply);
      }
    });
  });
  server.on('connection', (socket: Socket) => {
    connectionIds.set(socket, connectionCount++);
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    baseUrl: `${origin}/api/v1`,
    port,
    requests,
    connections: () => connectionCount,
    handle(h) {
      current = typeof h === 'function' ? h : () => h;
    },
    queue(...replies) {
      pending.push(...replies);
    },
    reset() {
      requests.length = 0;
      pending.length = 0;
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port on 127.0.0.1 where nothing listens (a server is opened then closed). */
export async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/**
 * A scriptable server for one test file: started before its tests, back to `answer` (and no
 * recorded requests) after each one, closed after all, temp folders removed. The returned
 * object stands for the server, which exists only once `beforeAll` has run.
 */
export function useTestServer(answer: Reply): TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(answer);
  });
  afterEach(() => {
    server?.reset();
    server?.handle(answer);
  });
  afterAll(async () => {
    await server?.close();
    cleanupTempDirs();
  });
  return new Proxy({} as TestServer, {
    get(_, name) {
      if (!server) throw new Error('useTestServer: the server starts in beforeAll');
      const value = Reflect.get(server, name);
      return typeof value === 'function' ? value.bind(server) : value;
    },
  });
}
