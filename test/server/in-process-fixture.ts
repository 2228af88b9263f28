import { readFile, writeFile } from 'node:fs/promises';
import { headerLine, journalPathOf, snapshotId } from '../../src/server/store/journal.js';
import { join } from 'node:path';
import { openForServing } from '../../src/server/open-for-serving.js';
import type { ServedStore } from '../../src/server/open-for-serving.js';
import { inProcessServer, IN_PROCESS_ORIGIN } from '../../src/server/transport/in-process.js';
import { fixedClock } from '../../src/server/domain/clock.js';
import { InProcessDispatcher } from '../../src/local/in-process-dispatcher.js';
import { fixtureStore, NOW } from './helpers.js';
import type { ReqOptions, Res, TestServer } from './helpers.js';

/** What the decision tests use of a server, whichever carrier brings the requests. */
export type FixtureTarget = Pick<TestServer, 'path' | 'dir' | 'store' | 'operations' | 'req' | 'stop'>;

/**
 * The fixture store behind --local's carrier (src/local/in-process-dispatcher.ts): the same
 * pipeline as `startFixtureServer`, reached through undici's request() on the in-process
 * dispatcher instead of a socket. Requests are shaped like helpers.ts's `request`.
 */
export async function startInProcessFixture(): Promise<FixtureTarget> {
  const s = await fixtureStore();
  // As --local opens it (src/local/embedded.ts): records validated on first use, over a file
  // its journal names (one cr wrote), so that each collection's check runs with its first request.
  await writeFile(journalPathOf(s.path), headerLine(snapshotId(await readFile(s.path))));
  const opened = await openForServing(s.path, {
    clock: fixedClock(NOW),
    notice: () => {},
    onInternalError: () => {},
    storeOptions: { validation: 'first-use' },
  });
  const dispatcher = new InProcessDispatcher(inProcessServer(opened.operations, () => {}));
  const req = async (method: string, path: string, o: ReqOptions = {}): Promise<Res> => {
    const headers: Record<string, string> = { ...o.headers };
    if (o.key) headers.authorization = `Bearer ${o.key}`;
    let body: string | Buffer | undefined;
    if (o.rawBody !== undefined) body = o.rawBody;
    else if (o.body !== undefined) body = JSON.stringify(o.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const res = await dispatcher.request({ origin: IN_PROCESS_ORIGIN, path, method: method as 'GET', headers, body });
    const text = await res.body.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.statusCode, headers: res.headers, text, json };
  };
  return fixtureTarget(opened, s.cleanup, req);
}

/** A fixture target over a store opened for serving: its store file, its pipeline, and how to stop both. */
export function fixtureTarget(opened: ServedStore, cleanup: () => Promise<void>, req: FixtureTarget['req']): FixtureTarget {
  return {
    path: opened.storePath,
    dir: join(opened.storePath, '..'),
    store: opened.file!,
    operations: opened.operations,
    req,
    stop: async () => {
      await opened.close();
      await cleanup();
    },
  };
}
