import type { IncomingMessage } from 'node:http';

/**
 * When the server took each request, before any injected latency (`cr serve --faults`): the
 * log's duration is what the client waited (docs/api-decisions.md §9).
 */
export const receivedAt = new WeakMap<IncomingMessage, number>();

/**
 * The status `cr serve` answered a connection with when Node's parser refused its bytes
 * mid-request (bad chunked framing: serve.ts answers 400 and closes). The request being read
 * then fails like an upload cut short; its log line gives this status, what the client got,
 * rather than 499 (docs/api-decisions.md §9).
 */
export const refusedWith = new WeakMap<object, number>();
