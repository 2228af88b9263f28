/**
 * Fixed words and limits of the API that the CLI needs without loading zod (start-up:
 * the schemas cost ~20 ms to build). The schemas import them from here.
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

/** Statuses of a nurture sequence (the `status` filter of GET /content/nurture-sequences). */
export const NURTURE_STATUSES = ['draft', 'active', 'paused', 'archived'] as const;

/** Dimension types of a learning (the `dimension_type` filter of GET /intelligence/learnings). */
export const DIMENSION_TYPES = ['hook', 'angle', 'offer', 'story', 'audience', 'format', 'cta'] as const;

/** `ad_format` and `platform` of an ad creative. */
export const AD_FORMATS = ['single_image', 'carousel', 'video', 'responsive_search', 'responsive_display'] as const;
export const AD_PLATFORMS = ['google', 'meta', 'linkedin', 'tiktok', 'pinterest', 'x'] as const;

/**
 * The API's id format, as the schemas check it (zod's uuid, RFC 9562: versions 1-8, the nil and
 * max ids): the CLI checks ids with it before sending (docs/cli-contract.md §5, exit 2).
 */
export const UUID_PATTERN =
  /^([0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/i;

/** Largest page of GET /content/nurture-sequences. */
export const NURTURE_MAX_LIMIT = 200;

/** Largest `limit` of GET /intelligence/learnings. */
export const LEARNINGS_MAX_LIMIT = 200;

/** The CRM product's path segment in the published path; profiles may rename it. */
export const CRM_PATH_SEGMENT = 'crm';

/**
 * Host names that mean "this machine" (docs/api-decisions.md §8): `cr serve` bound to one of them
 * needs no --allowed-host.
 */
export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** Where the API's paths start, on the service and on the local server. */
export const API_PREFIX = '/api/v1';
