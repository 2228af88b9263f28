import type { IncomingMessage } from 'node:http';

/**
 * When the server took each request, before any injected latency (`cr serve --faults`): the
 * log's duration is what the client waited (docs/api-decisions.md §9).
 */
export const receivedAt = new WeakMap<IncomingMessage, number>();
