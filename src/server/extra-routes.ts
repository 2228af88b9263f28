import type { Hono } from 'hono';
import type { AppEnv, ServerCore } from './app.js';
import { API_PREFIX, BodyTooLarge, envelope, readBodyText } from './app.js';
import { authenticate } from './auth.js';
import { HttpError } from './errors.js';
import { safeJsonParse } from './json.js';

/**
 * /api/v1/openapi.json (no auth) and /api/v1/mcp (Bearer auth checked before the MCP
 * transport runs). MCP tool calls go through core.invoke, so they share REST's rate limit,
 * role, scope and validation; each tool call counts as one request against the limit.
 */
export function mountExtraRoutes(app: Hono<AppEnv>, core: ServerCore): void {
  let openApi: Record<string, unknown> | undefined;
  app.get(`${API_PREFIX}/openapi.json`, async (c) => {
    if (!openApi) {
      const { buildOpenApiDocument } = await import('./openapi.js');
      openApi = buildOpenApiDocument(API_PREFIX);
    }
    // decisions.md §10: `servers` holds the absolute base URL the request came in on. The
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
    try {
      const auth = authenticate(core.store, c.req.header('authorization'));
      c.set('keyId', auth.keyId);
    } catch (err) {
      if (err instanceof HttpError) return c.json(err.body, err.status as 401);
      throw err;
    }
    let text: string;
    try {
      text = await readBodyText(c.req.raw);
    } catch (err) {
      if (err instanceof BodyTooLarge) return envelope(c, 413, 'Payload too large', 'PAYLOAD_TOO_LARGE', { Connection: 'close' });
      throw err;
    }
    let parsedBody: unknown;
    try {
      parsedBody = safeJsonParse(text);
    } catch {
      return envelope(c, 400, 'Invalid JSON body', 'BAD_REQUEST');
    }
    const { handleMcpRequest } = await import('./mcp.js');
    return handleMcpRequest(c.req.raw, core.invoke, parsedBody);
  });
}
