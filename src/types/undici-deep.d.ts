// The undici modules the HTTP core loads directly (see src/http/undici-core.ts, undici-agent.ts).
declare module 'undici/lib/dispatcher/agent.js' {
  const Agent: unknown;
  export default Agent;
}
declare module 'undici/lib/dispatcher/dispatcher.js' {
  const Dispatcher: { prototype: object };
  export default Dispatcher;
}
declare module 'undici/lib/api/api-request.js' {
  const request: (...args: unknown[]) => unknown;
  export default request;
}
