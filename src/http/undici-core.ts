/**
 * undici's connection pool and request API, without the rest of undici.
 *
 * `import 'undici'` also loads fetch, WebSocket, EventSource, caching, mocks and cookies
 * (whose module touches globalThis.Headers and so boots Node's own bundled undici too):
 * about 40 ms of start-up that a CLI making one request never uses. These are the same
 * modules undici's index wires together for `Agent#request`.
 *
 * These paths are undici's private layout, not its public API: a patch release may move
 * them. That is why package.json pins undici exactly (no caret); upgrading means checking
 * these three imports (and src/types/undici-deep.d.ts) against the new version's lib/.
 */
import type { Agent as AgentClass } from 'undici';
import AgentImpl from 'undici/lib/dispatcher/agent.js';
import DispatcherImpl from 'undici/lib/dispatcher/dispatcher.js';
import api from 'undici/lib/api/index.js';

// What undici's index.js does: request(), stream()… are methods of every dispatcher.
Object.assign(DispatcherImpl.prototype, api);

export const Agent = AgentImpl as typeof AgentClass;
export type Agent = AgentClass;
