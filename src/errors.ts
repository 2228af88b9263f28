/**
 * Typed failures. Every error a command can end with is one of these; src/cli.ts maps
 * them to exit codes in one place (exitCodeOf).
 */

export class CrError extends Error {
  /** Machine-readable code printed after the message, when there is one. */
  code?: string;
  constructor(message: string, options?: { cause?: unknown; code?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = options?.code;
  }
}

/** Bad command line: unknown command, bad flag or value. Nothing was sent. Exit 2. */
export class UsageError extends CrError {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message, { code: 'USAGE' });
  }
}

/** No key configured at all, or a key the server refused before it was stored. Exit 3. */
export class AuthMissingError extends CrError {
  constructor(message = 'No API key configured. Run `cr auth login`, set CR_API_KEY, or pass --local.', code = 'NO_API_KEY') {
    // A refused key (`auth login` checking one) carries the server's INVALID_API_KEY: the code matches the message.
    super(message, { code });
  }
}

export interface ErrorDetail {
  path: string;
  message: string;
}

/** The server answered with an error envelope (or an error status). */
export class ApiError extends CrError {
  constructor(
    readonly status: number,
    message: string,
    readonly method: string,
    readonly url: string,
    options: { code?: string; details?: ErrorDetail[]; retryAfter?: string; body?: unknown; apiMessage?: string } = {},
  ) {
    super(message, { code: options.code });
    this.details = options.details;
    this.retryAfter = options.retryAfter;
    this.body = options.body;
    this.apiMessage = options.apiMessage ?? message;
  }
  /** The message without the request (for --json errors: the API's words, details, retry hint). */
  readonly apiMessage: string;
  details?: ErrorDetail[];
  retryAfter?: string;
  body?: unknown;

  /**
   * Builds the error from a status and whatever body came back (envelope or not). `retryAt`
   * is a 429's wait said for people (`14:05 (in 23 min)`, src/http/rate-budget.ts); without
   * it the Retry-After value is put in words.
   */
  static from(status: number, payload: unknown, method: string, url: string, retryAfter?: string, retryAt?: string): ApiError {
    const envelope = (payload && typeof payload === 'object' ? payload : {}) as Record<string, unknown>;
    const serverMessage = typeof envelope.error === 'string' ? envelope.error : `HTTP ${status}`;
    // The server's own code; an answer without one (an unknown post's 404, docs/api-decisions.md; a
    // HEAD, which has no body; an empty or foreign error body) still gets a stable code on the CLI
    // side, the one the API gives that status, so scripts need not match the message. The body is
    // kept as sent.
    const code = typeof envelope.code === 'string' ? envelope.code : codeOfStatus(status);
    const details = Array.isArray(envelope.details) ? (envelope.details as ErrorDetail[]) : undefined;
    let message = serverMessage;
    if (details?.length) message += ': ' + details.map((d) => (d.path ? `${d.path}: ${d.message}` : d.message)).join('; ');
    if (status === 429) message += `; retry after ${retryAt ?? describeRetryAfter(retryAfter)}`;
    return new ApiError(status, `${message} (${method} ${url})`, method, url, { code, details, retryAfter, body: payload, apiMessage: message });
  }
}

/**
 * The code the API gives each error status (docs/api-decisions.md §1; a 503 as the fault
 * injector words one, src/server/app/faults.ts), for an answer that carries none. A status the
 * API never gives has the plain `HTTP_<status>`, so every error still prints a code.
 */
const STATUS_CODES: Readonly<Record<number, string>> = {
  400: 'BAD_REQUEST',
  401: 'INVALID_API_KEY',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'INVALID_STATE',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  500: 'INTERNAL_ERROR',
  503: 'SERVICE_UNAVAILABLE',
};

/** The code of an error answer that carries none of its own (`STATUS_CODES`). */
function codeOfStatus(status: number): string {
  return STATUS_CODES[status] ?? `HTTP_${status}`;
}

/**
 * Retry-After in words when src/http/rate-budget.ts did not place it on the clock. More seconds
 * than a week (its MAX_RATE_WAIT_MS) is out of range and says "a while", like no value at all.
 */
function describeRetryAfter(value: string | undefined): string {
  // Only delay-seconds is put in words: any other text (`1e400`, `NaN`, a date out of range) is
  // not echoed, as if not sent.
  if (!value || !/^\d+$/.test(value.trim())) return 'a while';
  const seconds = Number(value);
  if (seconds > 7 * 86_400) return 'a while';
  if (seconds >= 3600 && seconds % 3600 === 0) return `${seconds / 3600} hour${seconds === 3600 ? '' : 's'}`;
  if (seconds >= 60) return `${Math.ceil(seconds / 60)} minutes`;
  return `${seconds} seconds`;
}

/** Could not reach the server, timed out, or TLS failed. Exit 8. */
export class NetworkError extends CrError {
  /** Whether another attempt could help (a too-large response or a spent --timeout: no). */
  readonly retryable: boolean;
  constructor(
    readonly method: string,
    readonly url: string,
    message: string,
    options?: { cause?: unknown; code?: string; retryable?: boolean },
  ) {
    super(`${message} (${method} ${url})`, { cause: options?.cause, code: options?.code ?? 'NETWORK_ERROR' });
    this.retryable = options?.retryable ?? true;
  }
}

/** The server answered, but not with the JSON the API promises. Exit 1. */
export class ResponseError extends CrError {
  /** The HTTP status of the answer, when one came (--json errors carry it). */
  readonly status?: number;
  constructor(message: string, options?: { cause?: unknown; status?: number }) {
    super(message, { cause: options?.cause, code: 'BAD_RESPONSE' });
    this.status = options?.status;
  }
}

/** The user pressed Ctrl-C. Exit 130. */
export class InterruptedError extends CrError {
  constructor() {
    super('Interrupted', { code: 'INTERRUPTED' });
  }
}

/** Local configuration or store problem (bad config file, store held by a server...). Exit 1 unless given. */
export class LocalError extends CrError {
  constructor(
    message: string,
    readonly exitCode = 1,
    options?: { cause?: unknown; code?: string },
  ) {
    super(message, options);
  }
}

export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  auth: 3,
  permission: 4,
  notFound: 5,
  invalid: 6,
  rateLimited: 7,
  network: 8,
  interrupted: 130,
} as const;

/** The single mapping from an error to the process exit code (docs/cli-contract.md §5). */
export function exitCodeOf(error: unknown): number {
  if (error instanceof UsageError) return EXIT.usage;
  if (error instanceof AuthMissingError) return EXIT.auth;
  if (error instanceof NetworkError) return EXIT.network;
  if (error instanceof InterruptedError) return EXIT.interrupted;
  if (error instanceof LocalError) return error.exitCode;
  if (error instanceof ApiError) {
    const s = error.status;
    if (s === 401) return EXIT.auth;
    if (s === 403) return EXIT.permission;
    if (s === 404) return EXIT.notFound;
    if (s === 400 || s === 409 || s === 413 || s === 415 || s === 422) return EXIT.invalid;
    if (s === 429) return EXIT.rateLimited;
    if (s >= 500) return EXIT.network;
    return EXIT.failure;
  }
  return EXIT.failure;
}
