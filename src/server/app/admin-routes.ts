import type { Operations } from './operation-types.js';
import { authenticate } from '../domain/auth.js';
import { HttpError } from '../domain/errors.js';
import { storeUnavailable } from './unavailable.js';
import { BodyTooLarge } from './body.js';
import { safeJsonParse } from '../json.js';
import { KeyError } from '../domain/keys.js';
import { headerOf, jsonAnswer } from './router.js';
import type { RouteMatch, RouteRequest } from './router.js';
import { errorAnswer } from './table-route.js';
import type { PlainAnswer } from './table-route.js';
import { StoreFullError, StoreUnavailableError } from '../store/store.js';
import { ROLES } from '../../api/vocabulary.js';
import type { Role } from '../../api/vocabulary.js';
import { FixtureError, MAX_SEED_BYTES, checkOnly } from '../ops/admin/fixtures.js';
import { createStoreKey, exportStore, listStoreKeys, revokeStoreKey, seedStore } from '../ops/admin/store-ops.js';
import { ResetError, resetStore } from '../ops/admin/reset.js';

/**
 * The local administration extension (docs/api-decisions.md, "Local server extensions"): `cr local keys`, `seed` and
 * `export` reach the server that holds a store through it, so a store is administered while
 * it is served. It is no part of the public API (not under /api/v1, not in the OpenAPI
 * document, no MCP tool) and answers only a loopback peer holding an admin key of this
 * store; anything else gets 404, as if the path did not exist. Its paths are entries of the
 * server's one route table (src/server/app/extra-routes.ts); their answers are made here.
 */
export const LOCAL_ADMIN_PREFIX = '/_local';

const LOOPBACK_PEER = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

const notFound = () => errorAnswer(404, 'Not found', 'NOT_FOUND');

/** What a refusal thrown by an operation is answered with (the public API's answers, docs/api-decisions.md §9). */
function refusal(err: unknown): PlainAnswer | undefined {
  if (err instanceof HttpError) return jsonAnswer(err.status, err.body, err.headers);
  if (err instanceof FixtureError) return jsonAnswer(400, { success: false, error: 'Invalid fixtures', code: err.code, problems: err.problems });
  if (err instanceof KeyError) return jsonAnswer(400, { success: false, error: err.message, code: 'KEY_REQUEST', kind: err.kind });
  if (err instanceof ResetError) return jsonAnswer(400, { success: false, error: err.message, code: 'RESET_REQUEST', kind: err.kind });
  if (err instanceof BodyTooLarge) return errorAnswer(413, 'Payload too large', 'PAYLOAD_TOO_LARGE', { Connection: 'close' });
  if (err instanceof StoreFullError) return errorAnswer(507, 'Store is full', 'STORE_FULL');
  if (err instanceof StoreUnavailableError) {
    const refused = storeUnavailable(err.why);
    return { ...jsonAnswer(503, refused.body, refused.headers), cause: err.why };
  }
  return undefined;
}

async function jsonBody(req: RouteRequest, max?: number): Promise<unknown> {
  const text = await req.readBody(max);
  try {
    return safeJsonParse(text);
  } catch (err) {
    throw new FixtureError([{ path: '$', message: `not valid JSON (${(err as Error).message})` }]);
  }
}

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

const ok = (data: unknown, status = 200) => jsonAnswer(status, { success: true, data });

type AdminAction = (operations: Operations, req: RouteRequest, m: RouteMatch) => Promise<PlainAnswer>;

const adminActions = {
  listKeys: async (operations) => ok(await listStoreKeys(operations.store)),
  createKey: async (operations, req) => {
    const b = ((await jsonBody(req)) ?? {}) as Record<string, unknown>;
    const role = b.role as Role;
    if (!ROLES.includes(role)) throw new KeyError('unknown-role', `Unknown role "${String(b.role)}" (expected ${ROLES.join(', ')})`);
    const made = await createStoreKey(operations.store, {
      role,
      websiteId: str(b.website_id),
      agencyId: str(b.agency_id),
      name: str(b.name),
      now: operations.clock.now(),
    });
    return ok({ ...made.info, key: made.key }, 201);
  },
  revokeKey: async (operations, _req, m) => ok(await revokeStoreKey(operations.store, m.params().id ?? '', operations.clock.now())),
  seed: async (operations, req) => ok(await seedStore(operations.store, await jsonBody(req, MAX_SEED_BYTES))),
  // `cr local reset`: { "website_id": ID } or { "all_data": true }, nothing else (reset.ts).
  reset: async (operations, req) => {
    const b = ((await jsonBody(req)) ?? {}) as Record<string, unknown>;
    const websiteId = str(b.website_id);
    if ((websiteId === undefined) === (b.all_data !== true)) {
      throw new FixtureError([{ path: '$', message: 'expected exactly one of website_id (a string) and all_data: true' }]);
    }
    return ok(await resetStore(operations.store, websiteId === undefined ? { allData: true } : { websiteId }));
  },
  export: async (operations, _req, m) => {
    const only = m.query().only;
    const text = exportStore(await operations.store.snapshot(), typeof only === 'string' && only ? checkOnly(only.split(',')) : undefined);
    return { status: 200, headers: { 'content-type': 'application/json' }, body: text };
  },
} satisfies Record<string, AdminAction>;

/** Loopback and an admin key of this store, else the same 404 as an unknown path; then the operation. */
export async function answerLocalAdmin(operations: Operations, name: keyof typeof adminActions, req: RouteRequest, m: RouteMatch): Promise<PlainAnswer> {
  if (!req.peer || !LOOPBACK_PEER.test(req.peer)) return notFound();
  let keyId: string | undefined;
  try {
    const auth = await authenticate(operations.store, headerOf(req.headers, 'authorization'));
    keyId = auth.keyId;
    if (auth.role !== 'admin') return { ...errorAnswer(403, 'Local administration needs an admin key of this store', 'FORBIDDEN'), keyId };
    return { ...(await adminActions[name](operations, req, m)), keyId };
  } catch (err) {
    const refused = refusal(err);
    if (refused) return { ...refused, keyId };
    throw err;
  }
}
