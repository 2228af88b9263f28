import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { tempDir, cleanupTempDirs } from '../helpers/tmp.js';
import { Store } from '../../src/server/store/store.js';
import { FIXTURE, KEYS, V, ensureBuilt, parseRawResponse, sleep, spawnServe, stopServe } from './support.js';

/**
 * Item 12: SIGTERM to a spawned `cr serve` during a stream of writes. Every request the
 * server took in gets its response (a slow request still uploading its body when the signal
 * arrives completes with 200), new connections are refused while it drains, it exits 0, and
 * the store is valid and holds every acknowledged write and nothing else.
 */
afterAll(() => cleanupTempDirs());

type Outcome = { kind: 'ok'; id: string } | { kind: 'status'; status: number } | { kind: 'refused' } | { kind: 'error'; code: string };

/** One POST on its own connection (no keep-alive), so "refused" and "accepted" are clear-cut. */
function postListener(port: number, name: string): Promise<Outcome> {
  const body = JSON.stringify({ name, source_type: 'rss', query_config: { feed_url: 'https://feed.example/rss' } });
  return new Promise((resolve) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `${V}/content/listeners`,
        agent: false,
        headers: { authorization: `Bearer ${KEYS.editorW1}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), connection: 'close' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          if (res.statusCode === 200) resolve({ kind: 'ok', id: JSON.parse(Buffer.concat(chunks).toString('utf8')).data.id });
          else resolve({ kind: 'status', status: res.statusCode ?? 0 });
        });
        res.on('error', (e: NodeJS.ErrnoException) => resolve({ kind: 'error', code: e.code ?? e.message }));
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED' ? { kind: 'refused' } : { kind: 'error', code: e.code ?? e.message }));
    req.end(body);
  });
}

const tryConnect = (port: number) =>
  new Promise<'refused' | 'connected' | string>((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.on('connect', () => {
      s.destroy();
      resolve('connected');
    });
    s.on('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED' ? 'refused' : (e.code ?? 'error')));
  });

describe('graceful stop', () => {
  beforeAll(async () => {
    await ensureBuilt();
  }, 120_000);

  it('SIGTERM during a stream of writes: in-flight requests complete, new connections refused, exit 0, every acknowledged write stored', async () => {
    const dir = tempDir('cr-stop-');
    const storePath = join(dir, 'store.json');
    copyFileSync(FIXTURE, storePath);
    const initial = await (async () => {
      const st = await Store.open(storePath);
      const n = st.list('content_listeners').length;
      await st.close();
      return n;
    })();
    const s = await spawnServe(['--store', storePath, '--rate-limit', '1000000'], { dir });

    // 1. A slow request: headers and half of the body now, the rest after the signal.
    const slowBody = JSON.stringify({ name: 'slow upload', source_type: 'rss', query_config: { feed_url: 'https://feed.example/slow' } });
    const slow = connect(s.port, '127.0.0.1');
    let slowText = '';
    const slowClosed = new Promise<void>((resolve) => {
      slow.on('data', (d: Buffer) => (slowText += d.toString()));
      slow.on('close', () => resolve());
      slow.on('error', () => resolve());
    });
    await new Promise<void>((r) => slow.once('connect', () => r()));
    slow.write(
      `POST ${V}/content/listeners HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\nAuthorization: Bearer ${KEYS.editorW1}\r\nContent-Type: application/json\r\nContent-Length: ${slowBody.length}\r\nConnection: close\r\n\r\n` +
        slowBody.slice(0, 20),
    );

    // 2. A stream of writes from 8 workers until the server refuses connections.
    const outcomes: Outcome[] = [];
    let seq = 0;
    let stopWriters = false;
    const writers = Array.from({ length: 8 }, async () => {
      while (!stopWriters) {
        const o = await postListener(s.port, `stream ${seq++}`);
        outcomes.push(o);
        if (o.kind === 'refused') break;
      }
    });

    // 3. SIGTERM once the stream is flowing.
    await sleep(400);
    const sentAt = performance.now();
    s.kill('SIGTERM');
    let exitedAt = 0;
    void s.exited.then(() => (exitedAt = performance.now()));

    // 4. While the slow request keeps the server draining, new connections are refused.
    let firstRefusal = 0;
    const probes: string[] = [];
    while (performance.now() - sentAt < 700) {
      const r = await tryConnect(s.port);
      if (r === 'refused' && !firstRefusal) firstRefusal = performance.now();
      if (firstRefusal) probes.push(r);
      await sleep(20);
    }
    expect(firstRefusal, 'new connections refused after SIGTERM').toBeGreaterThan(0);
    expect(exitedAt, 'still draining (the slow request is in flight)').toBe(0);
    expect(
      probes.every((p) => p === 'refused'),
      probes.join(','),
    ).toBe(true);

    // 5. The slow request finishes its upload and gets its answer.
    // (write, not end: a client that half-closes gets no answer from any Node HTTP server)
    slow.write(slowBody.slice(20));
    await slowClosed;
    const slowAnsweredAt = performance.now();
    const slowRes = parseRawResponse(slowText);
    expect(slowRes.status, `${slowText} exited=${exitedAt - sentAt} ${s.stderr()}`).toBe(200);
    const slowId = JSON.parse(slowRes.body).data.id as string;

    stopWriters = true;
    await Promise.all(writers);
    const exit = await s.exited;
    expect(exit, s.stderr()).toEqual({ code: 0, signal: null });

    const acked = outcomes.filter((o): o is Extract<Outcome, { kind: 'ok' }> => o.kind === 'ok').map((o) => o.id);
    const refused = outcomes.filter((o) => o.kind === 'refused').length;
    // A connection still in the kernel's accept queue when the listening socket closes is
    // reset (ECONNRESET, no byte of answer): the server never took that request in, which the
    // store and the request log below confirm. Any other failure is a dropped request.
    const reset = outcomes.filter((o) => o.kind === 'error' && o.code === 'ECONNRESET').length;
    const errors = outcomes.filter((o) => o.kind === 'status' || (o.kind === 'error' && o.code !== 'ECONNRESET'));
    expect(errors, JSON.stringify(errors.slice(0, 5))).toEqual([]);
    expect(acked.length).toBeGreaterThan(20);

    // The store is valid and holds exactly the acknowledged writes.
    const st = await Store.open(storePath);
    try {
      const ids = new Set(st.list('content_listeners').map((l) => l.id));
      for (const id of [...acked, slowId]) expect(ids.has(id), id).toBe(true);
      // Exactly the acknowledged writes: no request was carried out without its answer reaching the client.
      expect(ids.size).toBe(initial + acked.length + 1);
    } finally {
      await st.close();
    }
    // And the request log shows every write it answered.
    const logged = s
      .stderr()
      .split('\n')
      .filter((l) => l.includes(`POST ${V}/content/listeners 200`)).length;
    expect(logged).toBe(acked.length + 1);
    console.log(
      `graceful stop: ${acked.length} writes acknowledged before/while stopping, ${refused} refused at connect, ${reset} reset in the accept queue (none of them stored), 0 dropped; slow request answered 200 ${(slowAnsweredAt - sentAt).toFixed(0)} ms after SIGTERM; exit 0 ${((exitedAt || performance.now()) - sentAt).toFixed(0)} ms after SIGTERM`,
    );
  }, 60_000);

  it('an idle server stops at once on SIGTERM with exit 0', async () => {
    const dir = tempDir('cr-stop-');
    const storePath = join(dir, 'store.json');
    copyFileSync(FIXTURE, storePath);
    const s = await spawnServe(['--store', storePath], { dir });
    // Exit 0 by itself: stopServe's SIGKILL (5 s after the SIGTERM) would leave signal SIGKILL.
    expect(await stopServe(s)).toEqual({ code: 0, signal: null });
  }, 30_000);
});
