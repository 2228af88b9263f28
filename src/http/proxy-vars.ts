/**
 * The proxy variables' names (src/http/proxy-env.ts reads their values), apart so that
 * checking whether one is set loads nothing: a run without a proxy variable loads no proxy
 * code (CONTRIBUTING.md "How cr starts").
 */
export const SCHEME_VARS = { 'https:': ['https_proxy', 'HTTPS_PROXY'], 'http:': ['http_proxy', 'HTTP_PROXY'] } as const;
export const FALLBACK_VARS = ['all_proxy', 'ALL_PROXY'] as const;

/** The first non-empty value among `names`, with the name it came from (the lower-case name first, as curl). */
export function firstSet(env: NodeJS.ProcessEnv, names: readonly string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return { name, value };
  }
  return undefined;
}

/** Whether any proxy variable is set. */
export function proxyConfigured(env: NodeJS.ProcessEnv): boolean {
  return firstSet(env, [...SCHEME_VARS['https:'], ...SCHEME_VARS['http:'], ...FALLBACK_VARS]) !== undefined;
}

/** A proxy URL as it may be shown: without its password (the user name stays, as curl -v shows it). */
export function showProxy(url: URL): string {
  const shown = new URL(url.href);
  if (shown.password) shown.password = '****';
  return shown.href.replace(/\/$/, '');
}

/** A proxy URL with no credentials at all, for error messages. */
export function proxyOrigin(url: URL): string {
  return `${url.protocol}//${url.host}`;
}
