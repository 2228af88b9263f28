/**
 * The errors cr's dispatchers fail a request with (src/http/node-dispatcher.ts,
 * src/http/undici-core.ts), named and coded as undici names its own, so that a MockAgent in
 * tests, the network and --local fail alike and src/http/network-errors.ts reads one set of
 * codes. Written here rather than imported from undici's lib/core/errors.js, which is not
 * part of undici's public API (CONTRIBUTING.md, rule 5).
 */
export class DispatchError extends Error {
  constructor(
    message: string,
    readonly code: string,
    name: string,
  ) {
    super(message);
    this.name = name;
  }
}

export const headersTimeout = () => new DispatchError('Headers Timeout Error', 'UND_ERR_HEADERS_TIMEOUT', 'HeadersTimeoutError');
export const bodyTimeout = () => new DispatchError('Body Timeout Error', 'UND_ERR_BODY_TIMEOUT', 'BodyTimeoutError');
export const connectTimeout = () => new DispatchError('Connect Timeout Error', 'UND_ERR_CONNECT_TIMEOUT', 'ConnectTimeoutError');
export const headersOverflow = () => new DispatchError('Headers Overflow Error', 'UND_ERR_HEADERS_OVERFLOW', 'HeadersOverflowError');
export const socketError = (message: string) => new DispatchError(message, 'UND_ERR_SOCKET', 'SocketError');
export const requestAborted = () => new DispatchError('Request aborted', 'UND_ERR_ABORTED', 'AbortError');
