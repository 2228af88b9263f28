import { openForServing } from '../../src/server/open-for-serving.js';
import { createApp } from '../../src/server/transport/fetch-handler.js';
import { fixedClock } from '../../src/server/domain/clock.js';
import { fixtureStore, NOW } from './helpers.js';
import type { ReqOptions, Res } from './helpers.js';
import { fixtureTarget } from './in-process-fixture.js';
import type { FixtureTarget } from './in-process-fixture.js';

/**
 * The fixture store behind the server's Fetch handler (src/server/transport/fetch-handler.ts): the third carrier
 * of the request pipeline and its router, beside `cr serve`'s listener and
 * --local's in-process dispatcher. Requests name Host `localhost` unless given one.
 */
export async function startFetchFixture(): Promise<FixtureTarget> {
  const s = await fixtureStore();
  const opened = await openForServing(s.path, { clock: fixedClock(NOW), notice: () => {}, onInternalError: () => {} });
  const app = createApp({ store: opened.operations.store, operations: opened.operations, onInternalError: () => {} });
  const req = async (method: string, path: string, o: ReqOptions = {}): Promise<Res> => {
    const headers: Record<string, string> = { host: 'localhost', ...o.headers };
    if (o.key) headers.authorization = `Bearer ${o.key}`;
    let body: string | Buffer | undefined;
    if (o.rawBody !== undefined) body = o.rawBody;
    else if (o.body !== undefined) body = JSON.stringify(o.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const res = await app.fetch(new Request(`http://localhost${path}`, { method, headers, body: method === 'GET' || method === 'HEAD' ? undefined : body }));
    // HEAD: the headers only, as an HTTP client sees them.
    const text = method === 'HEAD' ? '' : await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const plain: Record<string, string> = {};
    res.headers.forEach((value, name) => {
      plain[name] = value;
    });
    return { status: res.status, headers: plain, text, json };
  };
  return fixtureTarget(opened, s.cleanup, req);
}
