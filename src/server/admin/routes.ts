import type { IncomingMessage } from 'node:http';
import type { Hono, Context as HonoContext } from 'hono';
import type { AppEnv, ServerCore } from '../app.js';
import { envelope } from '../app.js';
import { authenticate } from '../auth.js';
import { HttpError } from '../errors.js';
import { storeUnavailable } from '../unavailable.js';
import { BodyTooLarge, readBodyText } from '../body.js';
import { safeJsonParse } from '../json.js';
import { KeyError } from '../keys.js';
import { StoreFullError, StoreUnavailableError } from '../store/store.js';
import { ROLES } from '../../api/vocabulary.js';
import type { Role } from '../../api/vocabulary.js';
import { FixtureError, MAX_SEED_BYTES, checkOnly } from './fixtures.js';
import { createStoreKey, exportStore, listStoreKeys, revokeStoreKey, seedStore } from './store-ops.js';
import { ResetError, resetStore } from './reset.js';

/**
 * The local administration extension (docs/api-decisions.md, "Local server extensions"): `cr local keys`, `seed` and
 * `export` reach the server that holds a store through it, so a store is administered while
 * it is served. It is no part of the public API (not under /api/v1, not in the OpenAPI
 * document, no MCP tool) and answers only a loopback peer holding an admin key of this
 * store; anything else gets 404, as if the path did not exist.
 */
export const LOCAL_ADMIN_PREFIX = '/_local';

const LOOPBACK_PEER = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

const peerOf = (c: HonoContext) => (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket.remoteAddress;

type Handler = (c: HonoContext<AppEnv>) => Promise<Response>;

/** Loopback and an admin key of this store, else the same 404 as an unknown path. */
function guarded(core: ServerCore, handler: Handler): Handler {
  return async (c) => {
    const peer = peerOf(c);
    if (!peer || !LOOPBACK_PEER.test(peer)) return envelope(c, 404, 'Not found', 'NOT_FOUND');
    try {
      const auth = await authenticate(core.store, c.req.header('authorization'));
      c.set('keyId', auth.keyId);
      if (auth.role !== 'admin') return envelope(c, 403, 'Local administration needs an admin key of this store', 'FORBIDDEN');
      return await handler(c);
    } catch (err) {
      if (err instanceof HttpError) return c.json(err.body, err.status as 401, err.headers);
      if (err instanceof FixtureError) return c.json({ success: false, error: 'Invalid fixtures', code: err.code, problems: err.problems }, 400);
      if (err instanceof KeyError) return c.json({ success: false, error: err.message, code: 'KEY_REQUEST', kind: err.kind }, 400);
      if (err instanceof ResetError) return c.json({ success: false, error: err.message, code: 'RESET_REQUEST', kind: err.kind }, 400);
      if (err instanceof BodyTooLarge) return envelope(c, 413, 'Payload too large', 'PAYLOAD_TOO_LARGE', { Connection: 'close' });
      // The store's own refusals, as the public API answers them (docs/api-decisions.md §9).
      if (err instanceof StoreFullError) return envelope(c, 507, 'Store is full', 'STORE_FULL');
      if (err instanceof StoreUnavailableError) {
        const refused = storeUnavailable(err.why);
        c.set('cause', err.why);
        return c.json(refused.body, 503, refused.headers);
      }
      throw err;
    }
  };
}

async function jsonBody(c: HonoContext, max?: number): Promise<unknown> {
  const text = await readBodyText(c.req.raw, max);
  try {
    return safeJsonParse(text);
  } catch (err) {
    throw new FixtureError([{ path: '$', message: `not valid JSON (${(err as Error).message})` }]);
  }
}

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

export function mountLocalAdmin(app: Hono<AppEnv>, core: ServerCore): void {
  const p = LOCAL_ADMIN_PREFIX;
  app.get(
    `${p}/keys`,
    guarded(core, async (c) => c.json({ success: true, data: await listStoreKeys(core.store) })),
  );
  app.post(
    `${p}/keys`,
    guarded(core, async (c) => {
      const b = ((await jsonBody(c)) ?? {}) as Record<string, unknown>;
      const role = b.role as Role;
      if (!ROLES.includes(role)) throw new KeyError('unknown-role', `Unknown role "${String(b.role)}" (expected ${ROLES.join(', ')})`);
      const made = await createStoreKey(core.store, {
        role,
        websiteId: str(b.website_id),
        agencyId: str(b.agency_id),
        name: str(b.name),
        now: core.clock.now(),
      });
      return c.json({ success: true, data: { ...made.info, key: made.key } }, 201);
    }),
  );
  app.post(
    `${p}/keys/:id/revoke`,
    guarded(core, async (c) => c.json({ success: true, data: await revokeStoreKey(core.store, c.req.param('id') ?? '', core.clock.now()) })),
  );
  app.post(
    `${p}/seed`,
    guarded(core, async (c) => c.json({ success: true, data: await seedStore(core.store, await jsonBody(c, MAX_SEED_BYTES)) })),
  );
  // `cr local reset`: { "website_id": ID } or { "all_data": true }, nothing else (reset.ts).
  app.post(
    `${p}/reset`,
    guarded(core, async (c) => {
      const b = ((await jsonBody(c)) ?? {}) as Record<string, unknown>;
      const websiteId = str(b.website_id);
      if ((websiteId === undefined) === (b.all_data !== true)) {
        throw new FixtureError([{ path: '$', message: 'expected exactly one of website_id (a string) and all_data: true' }]);
      }
      const data = await resetStore(core.store, websiteId === undefined ? { allData: true } : { websiteId });
      return c.json({ success: true, data });
    }),
  );
  app.get(
    `${p}/export`,
    guarded(core, async (c) => {
      const only = c.req.query('only');
      const text = exportStore(await core.store.snapshot(), only ? checkOnly(only.split(',')) : undefined);
      return c.body(text, 200, { 'content-type': 'application/json' });
    }),
  );
}
