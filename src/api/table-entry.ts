import type { z } from 'zod';
import type { Route } from './route-types.js';

type AnyObject = z.ZodType<Record<string, unknown>>;

/**
 * One published endpoint, written once: its HTTP facts (route-types.ts) and the zod schemas of
 * its path, query, body and response. Server, MCP tools and the OpenAPI document read the
 * table of them (endpoints.ts); the build generates from it what the CLI reads without zod
 * (scripts/gen-api.mjs: generated/routes.ts, generated/request-schemas.ts,
 * generated/response-schemas.ts), and `npm run lint` fails while a committed generated file is
 * stale (CONTRIBUTING.md, "Adding an endpoint").
 */
export interface Endpoint<
  P extends AnyObject | undefined = AnyObject | undefined,
  Q extends AnyObject | undefined = AnyObject | undefined,
  B extends AnyObject | undefined = AnyObject | undefined,
  D extends z.ZodType = z.ZodType,
> extends Route {
  params: P;
  query: Q;
  body: B;
  data: D;
}

// `const`: each entry keeps its literal facts (operation name, websiteParam) for the request types.
export const endpoint = <
  const R extends Route,
  P extends AnyObject | undefined,
  Q extends AnyObject | undefined,
  B extends AnyObject | undefined,
  D extends z.ZodType,
>(
  e: R & { params: P; query: Q; body: B; data: D },
) => e as Endpoint<P, Q, B, D> & R;
