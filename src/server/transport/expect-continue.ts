import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * `Expect: 100-continue` (RFC 9110 §10.1.1). Left to itself, Node answers `100 Continue` the
 * moment the headers arrive, before the request is looked at, so a client with a wrong key or
 * a declared body over the 1 MiB limit would send it all only to be refused. Here the 100 goes
 * out when something first reads the body, so a request refused before that (a declared
 * Content-Length over the limit: 413, src/server/app/body.ts; a foreign Host: 403; on /api/v1/mcp
 * a wrong key too) gets its final answer without a 100, and Node closes that connection after
 * it, as a body may still be on its way. On the endpoint table's paths the key and role are
 * checked after the body is read (the pipeline takes the body whole, src/server/app/table-route.ts),
 * so there a wrong key still gets its 100.
 */
export function continueWhenBodyIsRead(req: IncomingMessage, res: ServerResponse): void {
  // Without a body (a GET, Content-Length: 0) there is nothing to hold back, but Node closes
  // the connection after a final answer that had no 100; the 100 at once keeps it alive.
  if (!declaresBody(req)) {
    res.writeContinue();
    return;
  }
  const onListener = (event: string | symbol) => {
    if (event !== 'data' && event !== 'readable') return;
    req.off('newListener', onListener);
    if (!res.headersSent && !res.writableEnded) res.writeContinue();
  };
  req.on('newListener', onListener);
}

/** A body follows the headers: chunked, or a Content-Length above 0 (RFC 9112 §6.3). */
const declaresBody = (req: IncomingMessage): boolean => req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
