/**
 * The error statuses an operation of the table can answer with (docs/api-decisions.md §1), and what
 * each one means. The table (routes.ts) lists per operation which of them apply; the
 * OpenAPI document reads both, so its `responses` follow the table.
 */
export const ERROR_MEANINGS = {
  400: 'Validation error or invalid JSON body (BAD_REQUEST)',
  401: 'Missing or invalid API key (INVALID_API_KEY)',
  403: 'Insufficient role, website outside the key scope, or foreign Host/Origin (FORBIDDEN)',
  // The one lookup of the table is the social post of scheduleSocialPost (docs/api-decisions.md §1).
  404: 'Unknown social post, or post outside the key scope (no code)',
  409: 'Post is neither draft nor scheduled (INVALID_STATE)',
  413: 'Body larger than 1 MiB (PAYLOAD_TOO_LARGE)',
  // docs/api-decisions.md §9: a body whose Content-Type is not JSON, and a store at its size cap.
  415: 'Body sent with a Content-Type that is not JSON, or none (UNSUPPORTED_MEDIA_TYPE)',
  429: 'Rate limit exceeded (RATE_LIMITED); retry after the Retry-After seconds',
  500: 'Internal error (INTERNAL_ERROR)',
  503: 'The store could not commit the write (STORE_UNAVAILABLE)',
  507: 'The write would take the store past its size cap (STORE_FULL)',
} as const;

export type ErrorStatus = keyof typeof ERROR_MEANINGS;
