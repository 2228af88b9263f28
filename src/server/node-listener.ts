import type { IncomingMessage, ServerResponse } from 'node:http';
import { readIncomingText } from './body.js';
import type { Pipeline, PipelineAnswer } from './pipeline.js';
import { receivedAt, refusedWith } from './received-at.js';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

export interface TableFirstOptions {
  /** The request pipeline (pipeline.ts), shared with the Hono app behind `fallback`. */
  pipeline: Pipeline;
  /** Everything else: the Hono app through its Node adapter (which runs the same pipeline). */
  fallback: Listener;
}

/** Writes an answer of the pipeline to Node's response. */
export function writeAnswer(res: ServerResponse, answer: PipelineAnswer): void {
  if (answer.clientGone) {
    res.destroy();
    return;
  }
  // A declared length, as the Fetch adapter sent it: no chunked framing for a body known whole.
  const headers = answer.headers;
  headers['content-length'] = String(typeof answer.body === 'string' ? Buffer.byteLength(answer.body) : answer.body.byteLength);
  res.writeHead(answer.status, headers);
  res.end(answer.body);
}

/** The client's upload was cut short: its connection is gone, no answer reaches it. */
const uploadAborted = (req: IncomingMessage, err: unknown) => req.destroyed && (err as NodeJS.ErrnoException)?.code === 'ECONNRESET';

/**
 * `cr serve`'s request listener, a carrier of the pipeline (pipeline.ts): a request with a
 * Host goes to the pipeline straight from Node's request, and its answer is written with
 * writeHead/end. A path outside the endpoint table (OpenAPI, MCP, 404, a path with escapes),
 * or a request without a Host, goes to the Hono app, which carries it into the same pipeline.
 *
 * Why: the web Request/Response the Fetch adapter builds around each request, and Hono's
 * router and middleware, were most of the server's CPU per request beyond the pipeline's own
 * checks (docs/benchmarks.md, "Server throughput"), and a table route needs none of them.
 */
export function tableFirstListener(o: TableFirstOptions): Listener {
  return (req, res) => {
    const { host, origin } = req.headers;
    if (host === undefined) return o.fallback(req, res);
    const pending = o.pipeline({
      method: req.method ?? 'GET',
      url: req.url ?? '',
      headers: req.headers as Record<string, string | undefined>,
      host,
      origin,
      readBody: () => readIncomingText(req),
      clientGone: (err) => uploadAborted(req, err),
      refusedWith: () => refusedWith.get(req.socket),
      arrivedAt: receivedAt.get(req),
      deliver: (answer) => writeAnswer(res, answer),
    });
    if (!pending) o.fallback(req, res);
  };
}
