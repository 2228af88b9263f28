/** One validation problem: where (a dotted path, or `body`/`query`) and what. */
export type ErrorDetail = { path: string; message: string };

/**
 * The error envelope of docs/api-decisions.md §1, built here only: every answer of the
 * server that is not a success (the pipeline, the carriers, faults, MCP tool errors) has it.
 * `code` is absent when undefined (the scheduling not-found), `details` when none.
 */
export function errorEnvelope(error: string, code: string | undefined, details?: readonly ErrorDetail[]): Record<string, unknown> {
  const body: Record<string, unknown> = { success: false, error };
  if (code !== undefined) body.code = code;
  if (details) body.details = details;
  return body;
}

/** An API error answer (docs/api-decisions.md §1): status, envelope message, code (absent when undefined). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | undefined,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
  }

  get body(): Record<string, unknown> {
    return errorEnvelope(this.message, this.code, this.details);
  }
}

/**
 * The 401 of docs/api-decisions.md §1, with the challenge of RFC 6750 (docs/api-decisions.md §9): the realm, and
 * `error="invalid_token"` when a key was sent.
 */
export const invalidKey = (keySent = false) =>
  new HttpError(401, 'Invalid API key', 'INVALID_API_KEY', undefined, {
    'WWW-Authenticate': keySent ? 'Bearer realm="cr", error="invalid_token"' : 'Bearer realm="cr"',
  });
export const validationError = (details: { path: string; message: string }[]) => new HttpError(400, 'Validation error', 'BAD_REQUEST', details);
export const notInScope = () => new HttpError(403, 'Website not in key scope', 'FORBIDDEN');
/** The scheduling not-found: no code field at all (docs/api-decisions.md, Errors). */
export const postNotFound = () => new HttpError(404, 'Not found', undefined);
/** What the client learns of an unexpected failure: nothing but that it happened (docs/api-decisions.md §1). */
export const internalError = () => new HttpError(500, 'Internal error', 'INTERNAL_ERROR');
