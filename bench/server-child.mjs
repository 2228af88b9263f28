/**
 * A server in its own process, so that the load generator never shares its event loop:
 *   node bench/server-child.mjs cr <store.json>   the real server (dist/src/server/serve.js)
 *   node bench/server-child.mjs hono              the ceiling: a bare Hono route returning a
 *                                                 constant envelope, served by @hono/node-server
 *                                                 (and /api/v1/bare-body: the text of BENCH_BODY)
 *   node bench/server-child.mjs nodehttp          the floor under any framework: plain node:http
 *                                                 (no Hono, no adapter) answering GET
 *                                                 /api/v1/bare-body with the text of BENCH_BODY
 * Started with fork() by bench/run.mjs; talks over IPC:
 *   → {type: 'ready', url, loadMs, rssMb, heapMb}
 *   ← 'stats'  → {type: 'stats', fsyncs, commits, storeStats, rssMb, cpuUserMs, cpuSystemMs}
 *   ← 'close'  → {type: 'closed', closeMs}; then exits 0 (a --cpu-prof profile is written on exit)
 */
import { hrtime } from 'node:process';

const [mode, storePath] = process.argv.slice(2);
const send = (m) => process.send?.(m);

let fsyncs = 0;
const fsyncsByKind = { file: 0, dir: 0 };
let server;

function countingFs(base) {
  // Wraps every call of the store's fs layer; counts sync() on the handles it opens. A Proxy
  // so that calls added to the layer later (a journal's append…) pass through unchanged.
  return new Proxy(base, {
    get(target, prop) {
      const v = target[prop];
      if (prop !== 'open' || typeof v !== 'function') return typeof v === 'function' ? v.bind(target) : v;
      return async (path, flags, mode) => {
        const fh = await v.call(target, path, flags, mode);
        const kind = flags === 'r' && !String(path).endsWith('.json') ? 'dir' : 'file';
        return new Proxy(fh, {
          get(h, p) {
            const f = h[p];
            if ((p === 'sync' || p === 'datasync') && typeof f === 'function') {
              return (...a) => {
                fsyncs++;
                fsyncsByKind[kind]++;
                return f.apply(h, a);
              };
            }
            return typeof f === 'function' ? f.bind(h) : f;
          },
        });
      };
    },
  });
}

// Profiling (bench/run.mjs, missed targets): the V8 CPU profiler, as `node --cpu-prof` uses,
// but started through the inspector so that the profile covers only the phase under test:
// BENCH_PROFILE_FROM=start (store load) or ready (traffic, after the store is loaded).
const profileOut = process.env.BENCH_PROFILE_OUT;
const profileFrom = process.env.BENCH_PROFILE_FROM ?? 'ready';
let session;
async function startProfile() {
  const { Session } = await import('node:inspector');
  session = new Session();
  session.connect();
  const post = (m, p) => new Promise((res, rej) => session.post(m, p, (e, r) => (e ? rej(e) : res(r))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 500 });
  await post('Profiler.start');
  return post;
}
let profilerPost;
async function stopProfile() {
  if (!profilerPost) return;
  const { profile } = await profilerPost('Profiler.stop');
  const { writeFileSync } = await import('node:fs');
  writeFileSync(profileOut, JSON.stringify(profile));
  profilerPost = undefined;
}

const mb = (b) => Math.round((b / 1048576) * 10) / 10;

if (mode === 'cr') {
  const { startServer } = await import('../dist/src/server/serve.js');
  const { nodeFs } = await import('../dist/src/server/store/fs-layer.js');
  if (profileOut && profileFrom === 'start') profilerPost = await startProfile();
  const t0 = hrtime.bigint();
  // /metrics on, as `cr serve` runs (docs/local-server.md): every request is counted and timed.
  server = await startServer({ storePath, host: '127.0.0.1', port: 0, rateLimit: 1e9, log: false, metrics: true, fs: countingFs(nodeFs) });
  const loadMs = Number(hrtime.bigint() - t0) / 1e6;
  const m = process.memoryUsage();
  if (profileOut) {
    if (profileFrom === 'start') await stopProfile();
    else profilerPost = await startProfile();
  }
  send({ type: 'ready', url: server.url, loadMs, rssMb: mb(m.rss), heapMb: mb(m.heapUsed), externalMb: mb(m.external + m.arrayBuffers) });
} else if (mode === 'hono') {
  const { Hono } = await import('hono');
  const { serve } = await import('@hono/node-server');
  const app = new Hono();
  const body = { success: true, data: { ok: true, service: 'bench', version: 1 } };
  app.get('/api/v1/bare', (c) => c.json(body));
  // The same bytes as a real answer (BENCH_BODY), as a constant: what the payload alone costs.
  const fixed = process.env.BENCH_BODY ?? '';
  app.get('/api/v1/bare-body', (c) => c.body(fixed, 200, { 'content-type': 'application/json' }));
  const t0 = hrtime.bigint();
  await new Promise((res) => {
    server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => {
      server.url = `http://127.0.0.1:${info.port}`;
      res();
    });
  });
  const m = process.memoryUsage();
  send({ type: 'ready', url: server.url, loadMs: Number(hrtime.bigint() - t0) / 1e6, rssMb: mb(m.rss), heapMb: mb(m.heapUsed) });
} else if (mode === 'nodehttp') {
  // What the summary's bytes cost on Node's own HTTP server: the same text, type and length as
  // the Hono bare-body route sends, headers prepared once. docs/benchmarks.md row 3 divides by it.
  const { createServer } = await import('node:http');
  const fixed = Buffer.from(process.env.BENCH_BODY ?? '', 'utf8');
  const headers = { 'content-type': 'application/json', 'content-length': String(fixed.length) };
  const t0 = hrtime.bigint();
  server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/api/v1/bare-body') {
      res.writeHead(200, headers);
      res.end(fixed);
    } else {
      res.writeHead(404, { 'content-length': '0' });
      res.end();
    }
  });
  await new Promise((res) => server.listen(0, '127.0.0.1', res));
  server.url = `http://127.0.0.1:${server.address().port}`;
  const m = process.memoryUsage();
  send({ type: 'ready', url: server.url, loadMs: Number(hrtime.bigint() - t0) / 1e6, rssMb: mb(m.rss), heapMb: mb(m.heapUsed) });
} else {
  console.error(`usage: server-child.mjs cr <store> | hono | nodehttp`);
  process.exit(2);
}

process.on('message', async (msg) => {
  if (msg === 'stats') {
    const store = server.store;
    let storeStats = null;
    try {
      storeStats = typeof store?.stats === 'function' ? store.stats() : null;
    } catch {
      storeStats = null;
    }
    const ru = process.resourceUsage();
    send({
      type: 'stats',
      fsyncs,
      fsyncsByKind: { ...fsyncsByKind },
      commits: storeStats?.commits ?? store?.commits ?? null,
      storeStats,
      rssMb: mb(process.memoryUsage().rss),
      cpuUserMs: ru.userCPUTime / 1000,
      cpuSystemMs: ru.systemCPUTime / 1000,
    });
  } else if (msg === 'close') {
    await stopProfile();
    const t0 = hrtime.bigint();
    if (typeof server.close === 'function' && server.store) await server.close();
    else
      await new Promise((res) => {
        server.close(() => res());
        server.closeIdleConnections?.();
      });
    send({ type: 'closed', closeMs: Number(hrtime.bigint() - t0) / 1e6 });
    process.disconnect?.();
    process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));
