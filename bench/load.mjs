/**
 * A small closed-loop load generator over undici: `connections` workers, one keep-alive
 * connection each, each sends its next request as soon as the previous answer is read,
 * for `durationMs`. Latency per request from process.hrtime; the generator's own CPU use
 * from process.resourceUsage (≈100 % of one core means the generator, not the server, is
 * the limit).
 */
import { Pool } from 'undici';
import { percentile } from './stats.mjs';

/**
 * One request through undici's low-level dispatch (no stream objects per response: keeps
 * the generator's own CPU cost low, so that on 2 cores it is not the bottleneck). Reads the
 * whole body; keeps its text only when asked.
 */
function dispatch(pool, opts, keepText) {
  return new Promise((resolve, reject) => {
    let statusCode = 0;
    let bytes = 0;
    const chunks = keepText ? [] : null;
    pool.dispatch(opts, {
      onConnect() {},
      onHeaders(code) {
        statusCode = code;
        return true;
      },
      onData(chunk) {
        bytes += chunk.length;
        if (chunks) chunks.push(chunk);
        return true;
      },
      onComplete() {
        resolve({ statusCode, bytes, text: chunks ? Buffer.concat(chunks).toString('utf8') : '' });
      },
      onError: reject,
    });
  });
}

const now = () => Number(process.hrtime.bigint()) / 1e6;

/**
 * @param {object} o
 * @param {string} o.origin      http://127.0.0.1:PORT
 * @param {string} o.path
 * @param {'GET'|'POST'} [o.method]
 * @param {Record<string,string>} [o.headers]
 * @param {(i:number)=>string} [o.body]  body of request i (POST)
 * @param {number} o.connections
 * @param {number} [o.durationMs]
 * @param {number} [o.maxRequests]      stop after this many (across all workers)
 * @param {(json:any)=>string|undefined} [o.ackId]  id of an acknowledged write (2xx), from the response JSON
 */
export async function runLoad(o) {
  const pool = new Pool(o.origin, { connections: o.connections, pipelining: 1, keepAliveTimeout: 30_000 });
  const method = o.method ?? 'GET';
  const headers = { ...(o.headers ?? {}) };
  if (method === 'POST') headers['content-type'] = 'application/json';
  const latencies = [];
  const status = {};
  const ids = [];
  let errors = 0;
  let sent = 0;
  let bytes = 0;
  const max = o.maxRequests ?? Infinity;
  const cpu0 = process.resourceUsage();
  const t0 = now();
  const end = o.durationMs ? t0 + o.durationMs : Infinity;

  async function worker() {
    while (sent < max && now() < end) {
      const i = sent++;
      const s = now();
      try {
        const res = await dispatch(pool, { path: o.path, method, headers, body: method === 'POST' ? o.body(i) : undefined }, !!o.ackId);
        const ms = now() - s;
        bytes += res.bytes;
        status[res.statusCode] = (status[res.statusCode] ?? 0) + 1;
        if (res.statusCode >= 200 && res.statusCode < 300) {
          latencies.push(ms);
          // Every 2xx is an acknowledged write: one without an id counts (as missing) in the
          // lost check rather than vanishing from it.
          if (o.ackId) ids.push(o.ackId(JSON.parse(res.text)) ?? null);
        } else {
          errors++;
        }
      } catch (err) {
        errors++;
        status[err.code ?? 'error'] = (status[err.code ?? 'error'] ?? 0) + 1;
      }
    }
  }
  await Promise.all(Array.from({ length: o.connections }, worker));
  const elapsed = now() - t0;
  const cpu1 = process.resourceUsage();
  await pool.close();
  latencies.sort((a, b) => a - b);
  const clientCpuMs = (cpu1.userCPUTime - cpu0.userCPUTime + cpu1.systemCPUTime - cpu0.systemCPUTime) / 1000;
  return {
    ok: latencies.length,
    errors,
    status,
    elapsedMs: elapsed,
    rps: latencies.length / (elapsed / 1000),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    bytesPerResponse: latencies.length ? bytes / latencies.length : 0,
    clientCpuPct: (clientCpuMs / elapsed) * 100,
    ids,
  };
}
