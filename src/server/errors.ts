/** An API error answer (decisions.md §1): status, envelope message, code (absent when undefined). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | undefined,
    readonly details?: { path: string; message: string }[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
  }

  get body(): Record<string, unknown> {
    const body: Record<string, unknown> = { success: false, error: this.message };
    if (this.code !== undefined) body.code = this.code;
    if (this.details) body.details = this.details;
    return body;
  }
}

export const invalidKey = () => new HttpError(401, 'Invalid API key', 'INVALID_API_KEY');
export const validationError = (details: { path: string; message: string }[]) =>
  new HttpError(400, 'Validation error', 'BAD_REQUEST', details);
export const notInScope = () => new HttpError(403, 'Website not in key scope', 'FORBIDDEN');
/** The scheduling not-found: no code field at all (service-api.md, Errors). */
export const postNotFound = () => new HttpError(404, 'Not found', undefined);
