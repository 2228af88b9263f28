import { API_PREFIX } from '../../api/vocabulary.js';
import type { Operations } from './operation-types.js';
import type { Route, RouteMatch, RouteRequest } from './router.js';
import type { PlainAnswer } from './table-route.js';

/** The local administration's prefix (docs/api-decisions.md, "Local server extensions"; admin-routes.ts). */
const LOCAL = '/_local';

type AdminName = 'listKeys' | 'createKey' | 'revokeKey' | 'seed' | 'reset' | 'export';

/** The local administration's routes: what `cr local keys|seed|export|reset` call (src/local/admin-client.ts). */
const ADMIN_ROUTES: readonly [method: string, path: string, name: AdminName][] = [
  ['GET', '/keys', 'listKeys'],
  ['POST', '/keys', 'createKey'],
  ['POST', '/keys/{id}/revoke', 'revokeKey'],
  ['POST', '/seed', 'seed'],
  ['POST', '/reset', 'reset'],
  ['GET', '/export', 'export'],
];

/**
 * The route table's entries besides the endpoint table (router.ts): /api/v1/openapi.json (no
 * auth), /api/v1/mcp (Bearer auth checked before the MCP transport runs; mcp-route.ts) and the
 * loopback administration under /_local (admin-routes.ts). Their handlers load on first use,
 * so a `--local` run that calls the endpoint table loads none of them.
 */
export function extraRoutes(operations: Operations): Route[] {
  let openApi: Record<string, unknown> | undefined;
  const routes: Route[] = [
    {
      path: `${API_PREFIX}/openapi.json`,
      methods: ['GET'],
      answer: async (req) => {
        if (!openApi) {
          const { buildOpenApiDocument } = await import('./openapi.js');
          openApi = buildOpenApiDocument(API_PREFIX);
        }
        // docs/api-decisions.md §10: `servers` holds the absolute base URL the request came in on. The
        // Host header it is built from has passed the Host check (§8) before this runs.
        const base = req.host ? `http://${req.host}${API_PREFIX}` : API_PREFIX;
        const text = JSON.stringify({ ...openApi, servers: [{ url: base, description: 'The server this document was read from' }] });
        return { status: 200, headers: { 'content-type': 'application/json' }, body: text };
      },
    },
    {
      path: `${API_PREFIX}/mcp`,
      answer: async (req) => (await import('./mcp-route.js')).answerMcp(operations, req),
    },
  ];
  for (const [method, path, name] of ADMIN_ROUTES) {
    routes.push({
      path: LOCAL + path,
      methods: [method],
      answer: async (req: RouteRequest, m: RouteMatch): Promise<PlainAnswer> => (await import('./admin-routes.js')).answerLocalAdmin(operations, name, req, m),
    });
  }
  return routes;
}
