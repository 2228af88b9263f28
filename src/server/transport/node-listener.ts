import type { IncomingMessage, ServerResponse } from 'node:http';
import { readIncomingText } from '../app/body.js';
import type { Pipeline, PipelineAnswer } from '../app/pipeline.js';
import { receivedAt, refusedWith } from '../app/received-at.js';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

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
 * `cr serve`'s request listener, the socket carrier of the pipeline (pipeline.ts): every
 * request goes to the pipeline and its one router (router.ts) straight from Node's request,
 * and its answer is written with writeHead/end. Nothing else is in between.
 *
 * Why no web Request/Response (a Fetch adapter) and no framework router: building them around
 * each request was most of the server's CPU per request beyond the pipeline's own checks
 * (docs/benchmarks.md, "Server throughput").
 */
export function nodeListener(pipeline: Pipeline): Listener {
  return (req, res) => {
    const { host, origin } = req.headers;
    void pipeline({
      method: req.method ?? 'GET',
      url: req.url ?? '',
      headers: req.headers as Record<string, string | undefined>,
      host: host ?? '',
      origin,
      peer: req.socket.remoteAddress,
      readBody: (max) => readIncomingText(req, max),
      clientGone: (err) => uploadAborted(req, err),
      refusedWith: () => refusedWith.get(req.socket),
      arrivedAt: receivedAt.get(req),
      deliver: (answer) => writeAnswer(res, answer),
    });
  };
}
