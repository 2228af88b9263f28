// What the bundle gets for the `debug` package (scripts/bundle.mjs, `alias`): a logger that never
// writes. The proxy agents (http-proxy-agent, https-proxy-agent) log through `debug` when DEBUG
// names them (or is `*`), and what they log holds the proxy URL with its password and the whole
// request with `authorization: Bearer cr_…`. No secret may reach stderr whatever the environment
// (docs/cli-contract.md §3): cr has --verbose, which masks them.
export default function createDebug() {
  const log = () => {};
  log.enabled = false;
  log.extend = () => log;
  return log;
}
createDebug.enable = () => {};
createDebug.disable = () => '';
createDebug.enabled = () => false;
