import { API_PREFIX } from '../../api/vocabulary.js';
import { authenticate } from '../domain/auth.js';
import { BodyTooLarge, unsupportedMediaType } from './body.js';
import type { Operations } from './operation-types.js';
import { HttpError } from '../domain/errors.js';
import { safeJsonParse } from '../json.js';
import { handleMcpRequest } from './mcp.js';
import { headerOf, jsonAnswer } from './router.js';
import type { RouteRequest } from './router.js';
import { errorAnswer } from './table-route.js';
import type { PlainAnswer } from './table-route.js';

/** Headers a web Request is built without: the framing is the carrier's, and the body is already read. */
const NOT_FORWARDED = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'expect', 'upgrade']);

/** The request as the MCP SDK's web-standard transport reads it: its headers, no body (it is given parsed). */
function webRequest(req: RouteRequest): Request {
  const headers = new Headers();
  const add = (name: string, value: string | undefined) => {
    if (value !== undefined && !NOT_FORWARDED.has(name)) headers.set(name, value);
  };
  if (typeof (req.headers as Headers).forEach === 'function' && typeof (req.headers as Headers).get === 'function') {
    (req.headers as Headers).forEach((value, name) => {
      add(name, value);
    });
  } else for (const [name, value] of Object.entries(req.headers)) add(name, Array.isArray(value) ? value.join(', ') : value);
  return new Request(`http://${req.host || 'localhost'}${API_PREFIX}/mcp`, { method: 'POST', headers });
}

/**
 * /api/v1/mcp: the key, then the body (1 MiB, JSON), then the stateless MCP transport
 * (mcp.ts). Tool calls go through operations.invoke, so they share REST's rate limit, role, scope
 * and validation; each tool call counts as one request against the limit.
 */
export async function answerMcp(operations: Operations, req: RouteRequest): Promise<PlainAnswer> {
  // Stateless JSON-response server: no standalone SSE stream (GET) and no sessions to end
  // (DELETE); the MCP spec's answer to both is 405, here with the envelope like REST.
  if (req.method !== 'POST') return errorAnswer(405, 'Method not allowed', 'METHOD_NOT_ALLOWED', { Allow: 'POST' });
  let keyId: string;
  try {
    keyId = (await authenticate(operations.store, headerOf(req.headers, 'authorization'))).keyId;
  } catch (err) {
    if (err instanceof HttpError) return jsonAnswer(err.status, err.body, err.headers);
    throw err;
  }
  // The same X-RateLimit-* headers as REST on every authenticated answer (docs/api-decisions.md §9),
  // as they stand after the tool calls of the exchange (each counts as one request).
  const rateHeaders = async () => {
    const rl = await operations.rateLimiter.peek(keyId);
    return { 'X-RateLimit-Limit': String(rl.limit), 'X-RateLimit-Remaining': String(rl.remaining), 'X-RateLimit-Reset': String(rl.reset) };
  };
  const answer = async (a: PlainAnswer): Promise<PlainAnswer> => ({ ...a, headers: { ...a.headers, ...(await rateHeaders()) }, keyId });
  let text: string;
  try {
    text = await req.readBody();
  } catch (err) {
    if (err instanceof BodyTooLarge) return answer(errorAnswer(413, 'Payload too large', 'PAYLOAD_TOO_LARGE', { Connection: 'close' }));
    throw err;
  }
  const media = unsupportedMediaType(text, headerOf(req.headers, 'content-type'));
  if (media) return answer(jsonAnswer(415, media.body, media.headers));
  let parsedBody: unknown;
  try {
    parsedBody = safeJsonParse(text);
  } catch {
    return answer(errorAnswer(400, 'Invalid JSON body', 'BAD_REQUEST'));
  }
  const res = await handleMcpRequest(webRequest(req), operations.invoke, parsedBody);
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return answer({ status: res.status, headers, body: new Uint8Array(await res.arrayBuffer()) });
}
