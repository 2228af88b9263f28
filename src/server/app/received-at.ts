import type { IncomingMessage } from 'node:http';

/**
 * On the request itself, not in a WeakMap: a WeakMap entry per request is an ephemeron that
 * the garbage collector traces specially, and with one made per request it showed in `cr
 * serve`'s GC time under write load (docs/benchmarks-analysis.md, "Build against build").
 */
const ARRIVED = Symbol('cr.receivedAt');
type Stamped = IncomingMessage & { [ARRIVED]?: number };

/**
 * When the server took each request, before any injected latency (`cr serve --faults`): the
 * log's duration is what the client waited (docs/api-decisions.md §9).
 */
export const receivedAt = {
  set(req: IncomingMessage, at: number): void {
    (req as Stamped)[ARRIVED] = at;
  },
  get(req: IncomingMessage): number | undefined {
    return (req as Stamped)[ARRIVED];
  },
};

/**
 * The status `cr serve` answered a connection with when Node's parser refused its bytes
 * mid-request (bad chunked framing: serve.ts answers 400 and closes). The request being read
 * then fails like an upload cut short; its log line gives this status, what the client got,
 * rather than 499 (docs/api-decisions.md §9).
 */
export const refusedWith = new WeakMap<object, number>();
