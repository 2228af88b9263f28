/**
 * Fixed words and limits of the API that the CLI needs without loading zod (start-up:
 * the schemas cost ~20 ms to build). The schemas import them from here.
 */

/** Roles, lowest first; a key may call an endpoint when its role ranks at or above the minimum. */
export const ROLES = ['viewer', 'editor', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const API_KEY_PATTERN = /^cr_[0-9a-f]{40}$/;

/** Largest page of GET /content/nurture-sequences. */
export const NURTURE_MAX_LIMIT = 200;
