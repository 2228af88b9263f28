import type { Hono } from 'hono';
import type { AppEnv, ServerCore } from './app.js';
import { API_PREFIX, envelope } from './app.js';
import { BodyTooLarge, readBodyText, unsupportedMediaType } from './body.js';
import { authenticate } from './auth.js';
import { HttpError } from './errors.js';
import { safeJsonParse } from './json.js';
import { mountLocalAdmin } from './admin/routes.js';

/**
 * /api/v1/openapi.json (no auth) and /api/v1/mcp (Bearer auth checked before the MCP
 * transport runs). MCP tool calls go through core.invoke, so they share REST's rate limit,
 * role, scope and validation; each tool call counts as one request against the limit.
 */
export function mountExtraRoutes(app: Hono<AppEnv>, core: ServerCore): void {
  // The local administration (/_local/…, src/server/admin/routes.ts): outside the public API.
  mountLocalAdmin(app, core);
  let openApi: Record<string, unknown> | undefined;
  app.get(`${API_PREFIX}/openapi.json`, async (c) => {
    if (!openApi) {
      const { buildOpenApiDocument } = await import('./openapi.js');
      openApi = buildOpenApiDocument(API_PREFIX);
    }
    // docs/api-decisions.md §10: `servers` holds the absolute base URL the request came in on. The
    // Host header it is built from has passed the Host check (§8) before this runs.
    const host = c.req.header('host');
    const base = host ? `${new URL(c.req.url).protocol}//${host}${API_PREFIX}` : API_PREFIX;
    const text = JSON.stringify({ ...openApi, servers: [{ url: base, description: 'The server this document was read from' }] });
    return c.body(text, 200, { 'content-type': 'application/json' });
  });

  app.all(`${API_PREFIX}/mcp`, async (c) => {
    // Stateless JSON-response server: no standalone SSE stream (GET) and no sessions to end
    // (DELETE); the MCP spec's answer to both is 405, here with the envelope like REST.
    if (c.req.method !== 'POST') {
      return envelope(c, 405, 'Method not allowed', 'METHOD_NOT_ALLOWED', { Allow: 'POST' });
    }
    let keyId: string;
    try {
      keyId = (await authenticate(core.store, c.req.header('authorization'))).keyId;
      c.set('keyId', keyId);
    } catch (err) {
      if (err instanceof HttpError) return c.json(err.body, err.status as 401, err.headers);
      throw err;
    }
    // The same X-RateLimit-* headers as REST on every authenticated answer (docs/api-decisions.md §9),
    // as they stand after the tool calls of the exchange (each counts as one request).
    const rateHeaders = async () => {
      const rl = await core.rateLimiter.peek(keyId);
      return { 'X-RateLimit-Limit': String(rl.limit), 'X-RateLimit-Remaining': String(rl.remaining), 'X-RateLimit-Reset': String(rl.reset) };
    };
    let text: string;
    try {
      text = await readBodyText(c.req.raw);
    } catch (err) {
      if (err instanceof BodyTooLarge) return envelope(c, 413, 'Payload too large', 'PAYLOAD_TOO_LARGE', { ...(await rateHeaders()), Connection: 'close' });
      throw err;
    }
    const media = unsupportedMediaType(text, c.req.header('content-type'));
    if (media) return c.json(media.body, 415, await rateHeaders());
    let parsedBody: unknown;
    try {
      parsedBody = safeJsonParse(text);
    } catch {
      return envelope(c, 400, 'Invalid JSON body', 'BAD_REQUEST', await rateHeaders());
    }
    const { handleMcpRequest } = await import('./mcp.js');
    const res = await handleMcpRequest(c.req.raw, core.invoke, parsedBody);
    const headers = new Headers(res.headers);
    for (const [name, value] of Object.entries(await rateHeaders())) headers.set(name, value);
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  });
}
