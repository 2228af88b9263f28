/**
 * Fixed words of the API that the CLI needs without loading zod (start-up: the schemas cost
 * ~20 ms to build) and that are no endpoint's field: roles, the key and id formats, the CRM
 * segment, loopback hosts. The values and bounds of request fields come from the endpoint
 * table instead, generated into generated/request-schemas.ts (CONTRIBUTING.md, "Adding an endpoint").
 */

/** Roles, lowest first; a key may call an endpoint when its role ranks at or above the minimum. */
export const ROLES = ['viewer', 'editor', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** An API key (docs/api-decisions.md "Authentication" 2): `cr_` and 40 lowercase hex characters. */
const API_KEY_SHAPE = 'cr_[0-9a-f]{40}';

/** A whole string that is one API key. */
export const API_KEY_PATTERN = new RegExp(`^${API_KEY_SHAPE}$`);

/** Every API key inside free text (URLs, bodies, messages), for masking. */
export const API_KEY_IN_TEXT = new RegExp(API_KEY_SHAPE, 'g');

/**
 * The API's id format, as the schemas check it (zod's uuid, RFC 9562: versions 1-8, the nil and
 * max ids): the CLI checks ids with it before sending (docs/cli-contract.md §5, exit 2).
 */
export const UUID_PATTERN =
  /^([0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/i;

/** The CRM product's path segment in the published path; profiles may rename it. */
export const CRM_PATH_SEGMENT = 'crm';

/**
 * Host names that mean "this machine" (docs/api-decisions.md §8): `cr serve` bound to one of them
 * needs no --allowed-host.
 */
/** The hourly rate limit a local server counts with when none is given or stored (src/server/app/rate-limit.ts). */
export const DEFAULT_RATE_LIMIT = 1000;

/** The highest hourly rate limit a local server counts with: a PostgreSQL store's windows count in an `integer` (src/server/store-pg/migrations.ts). */
export const MAX_RATE_LIMIT = 2147483647;

export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** Where the API's paths start, on the service and on the local server. */
export const API_PREFIX = '/api/v1';
