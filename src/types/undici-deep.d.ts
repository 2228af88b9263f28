// The undici modules the HTTP core loads directly (see src/http/undici-core.ts, node-dispatcher.ts).
declare module 'undici/lib/dispatcher/dispatcher.js' {
  const Dispatcher: { prototype: object };
  export default Dispatcher;
}
declare module 'undici/lib/api/api-request.js' {
  const request: (...args: unknown[]) => unknown;
  export default request;
}
declare module 'undici/lib/handler/unwrap-handler.js' {
  const UnwrapHandler: { unwrap(handler: object): object };
  export default UnwrapHandler;
}
declare module 'undici/lib/core/errors.js' {
  const errors: Record<string, unknown>;
  export default errors;
}
