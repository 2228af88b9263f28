/**
 * undici's request API on its dispatcher base, without the rest of undici.
 *
 * `import 'undici'` also loads fetch, WebSocket, EventSource, caching, mocks and cookies
 * (whose module touches globalThis.Headers and so boots Node's own bundled undici too):
 * about 40 ms of start-up that a CLI making one request never uses. These are the same
 * modules undici's index wires together for `Dispatcher#request`; what carries a request is
 * a dispatcher: node-dispatcher.ts over the network (node:http, not undici's Agent: see
 * there), src/local/in-process-dispatcher.ts for --local, a MockAgent in tests.
 *
 * These paths are undici's private layout, not its public API: a patch release may move
 * them. That is why package.json pins undici exactly (no caret); upgrading means checking
 * these imports, node-dispatcher.ts's (and src/types/undici-deep.d.ts) against the new version's lib/.
 */
import type { Dispatcher as DispatcherClass } from 'undici';
import DispatcherImpl from 'undici/lib/dispatcher/dispatcher.js';
import request from 'undici/lib/api/api-request.js';

// What undici's index.js does for request(), the one method of its API that cr calls (its
// index also loads stream(), pipeline(), upgrade() and connect(), which nothing here uses).
Object.assign(DispatcherImpl.prototype, { request });

/** The base every dispatcher extends: its request() drives a subclass's dispatch(). */
export const DispatcherBase = DispatcherImpl as unknown as typeof DispatcherClass;
